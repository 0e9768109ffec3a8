extension MITProvider {
    /// MIT answers an encrypted Base64 text (§5.3), sent as `text/html` or `text/plain`, or clear XML.
    package var answerMediaTypes: [String] { ["text/html", "text/plain", "xml"] }
}
