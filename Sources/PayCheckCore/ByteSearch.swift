#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level searches of UTF-8 text, for the hot paths where Foundation's `contains` showed in profiles
/// (docs/benchmarks.md): the suite parser's `{{` and `row.`, and the field names the runner's redactor and the mock's
/// journal look for. An ASCII needle has no other canonically equivalent form, so nothing Foundation finds is missed.
package enum ByteSearch {
    /// The first offset of `needle` in `haystack`, byte for byte (first-byte scan, then `memcmp`).
    package static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !needle.isEmpty else { return 0 }
        guard needle.count <= haystack.count, let h = haystack.baseAddress, let n = needle.baseAddress else { return nil }
        let first = n.pointee
        var index = 0
        let lastStart = haystack.count - needle.count
        while index <= lastStart {
            if h[index] == first, memcmp(h + index, n, needle.count) == 0 { return index }
            index += 1
        }
        return nil
    }

    /// Whether one of `names` (ASCII, lower case) occurs in `text`, ignoring ASCII case; `nil` when the text is not
    /// ASCII (Unicode case folding could then make a name appear, and the caller decides another way).
    package static func containsIgnoringASCIICase(_ text: String, anyOf names: [[UInt8]]) -> Bool? {
        var text = text
        return text.withUTF8 { bytes in
            var lowered: [UInt8] = []
            lowered.reserveCapacity(bytes.count)
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                lowered.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            return lowered.withUnsafeBufferPointer { haystack in
                names.contains { name in name.withUnsafeBufferPointer { find($0, in: haystack) != nil } }
            }
        }
    }
}

extension String {
    /// Whether the ASCII `needle` occurs in the text, byte for byte (``ByteSearch``).
    package func containsASCII(_ needle: StaticString) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            needle.withUTF8Buffer { ByteSearch.find($0, in: bytes) != nil }
        }
    }
}
