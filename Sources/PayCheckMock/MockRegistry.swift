/// The provider mocks the `paycheck` tool serves.
public enum MockRegistry {
    /// Every built-in provider mock.
    public static var builtIn: [any ProviderMock] { [PlacetoPayMock()] }
}
