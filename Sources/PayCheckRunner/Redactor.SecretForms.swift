extension Redactor {
    /// The texts a secret can appear as once encoded, computed once when the secret is added.
    ///
    /// Each form is matched by ``EncodedText``, which also reads every character of it percent-encoded
    /// (`%2F`, `%2f`, `+` for a space), JSON-escaped (`\"`, `\/`, `\u00e9`) or HTML-escaped (`&amp;`, `&#39;`),
    /// so those encodings need no form of their own. Base64 is not character by character, so it gets forms:
    /// - the whole secret encoded on its own, standard and URL-safe alphabet, with and without padding;
    /// - for each of the three byte alignments the secret can have inside a longer encoded text (HTTP Basic
    ///   `Base64(user:secret)`, a token, a JSON document), the characters that depend only on the secret's
    ///   bytes, in both alphabets. These are at least four characters for any secret of four bytes or more.
    ///
    /// Signatures are added as secrets for every signed request, so this works on bytes, without Foundation.
    enum SecretForms {
        /// The forms of `secret` as Unicode scalar values, the secret itself first; no duplicates.
        static func forms(of secret: String) -> [[UInt32]] {
            let bytes = Array(secret.utf8)
            var forms: [[UInt32]] = [secret.unicodeScalars.map(\.value)]
            /// Adds a Base64 text in both alphabets, unless it is there already.
            func add(_ base64: ArraySlice<UInt8>) {
                guard !base64.isEmpty else { return }
                let standard = base64.map(UInt32.init)
                let urlSafe = base64.map { UInt32($0 == plus ? minus : $0 == slash ? underscore : $0) }
                for form in [standard, urlSafe] where !forms.contains(form) { forms.append(form) }
            }
            let whole = encode(bytes)
            add(whole[...])
            add(whole[..<(whole.lastIndex { $0 != equals }.map { $0 + 1 } ?? 0)])
            for alignment in 0..<3 {
                // Character `i` covers bits `6i..<6i+6` of the stream; those inside the secret's bits are known
                // whatever surrounds it.
                let first = (8 * alignment + 5) / 6
                let end = 8 * (alignment + bytes.count) / 6
                guard end - first >= minimumSecretLength else { continue }
                let stream = [UInt8](repeating: 0, count: alignment) + bytes + [0, 0]
                add(encode(stream)[first..<end])
            }
            return forms
        }

        /// Standard Base64 with padding, as ASCII bytes.
        static func encode(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity((bytes.count + 2) / 3 * 4)
            var index = 0
            while index < bytes.count {
                let count = min(3, bytes.count - index)
                let b0 = UInt32(bytes[index])
                let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
                let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
                let group = b0 << 16 | b1 << 8 | b2
                out.append(alphabet[Int(group >> 18 & 63)])
                out.append(alphabet[Int(group >> 12 & 63)])
                out.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : equals)
                out.append(count > 2 ? alphabet[Int(group & 63)] : equals)
                index += 3
            }
            return out
        }

        /// The standard Base64 alphabet.
        private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        /// `=`, `+`, `/`, `-`, `_` as bytes.
        private static let (equals, plus, slash, minus, underscore) = (UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"))
    }
}
