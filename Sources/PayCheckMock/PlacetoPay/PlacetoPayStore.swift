/// The state of one PlacetoPay mock behind the shared store; one store per ``PlacetoPayMock``.
typealias PlacetoPayStore = ProviderStateStore<PlacetoPayState>
