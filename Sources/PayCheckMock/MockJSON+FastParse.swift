import Foundation

extension MockJSON {
    /// Parses strict JSON directly from bytes; `nil` means "not sure", never "invalid".
    ///
    /// Why: decoding `MockJSON` through `JSONDecoder` tries each type in turn with `try?`, and every failed try
    /// builds a `DecodingError`; under load (Benchmarks/, `wrk` on createSession) that was a third of the mock's
    /// CPU time. This scanner accepts only plain RFC 8259 JSON — UTF-8 without a BOM, unique object keys,
    /// strings without surrogate escapes, numbers that are normal doubles (or zero), nesting up to 64 levels —
    /// for which `JSONDecoder` produces exactly the same value. Anything else (invalid JSON, or valid JSON in
    /// one of those corners, where `JSONDecoder` has its own rules: first duplicate key wins, trailing commas
    /// in arrays are accepted, underflowing numbers are refused…) returns `nil`, and ``parse(_:)`` falls back to
    /// `JSONDecoder`, so what the mock accepts or refuses does not change.
    static func parseStrict(_ bytes: [UInt8]) -> MockJSON? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = StrictScanner(bytes: buffer)
            scanner.skipWhitespace()
            guard let value = scanner.value(depth: 0) else { return nil }
            scanner.skipWhitespace()
            return scanner.isAtEnd ? value : nil
        }
    }
}

/// The cursor of ``MockJSON/parseStrict(_:)``; every method returns `nil` as soon as the input leaves the subset.
private struct StrictScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { self.index == self.bytes.count }

    /// The current byte, or `nil` at the end.
    var peek: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }

    mutating func skipWhitespace() {
        while let byte = self.peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            self.index += 1
        }
    }

    /// Consumes `literal` if the input continues with it.
    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard self.bytes.count - self.index >= count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where self.bytes[self.index + offset] != start[offset] {
            return false
        }
        self.index += count
        return true
    }

    mutating func value(depth: Int) -> MockJSON? {
        guard depth < 64, let byte = self.peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return self.object(depth: depth)
        case UInt8(ascii: "["): return self.array(depth: depth)
        case UInt8(ascii: "\""): return self.string().map(MockJSON.string)
        case UInt8(ascii: "t"): return self.take("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return self.take("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return self.take("null") ? .null : nil
        default: return self.number()
        }
    }

    mutating func object(depth: Int) -> MockJSON? {
        self.index += 1  // {
        var members: [String: MockJSON] = [:]
        self.skipWhitespace()
        if self.peek == UInt8(ascii: "}") {
            self.index += 1
            return .object(members)
        }
        while true {
            guard self.peek == UInt8(ascii: "\""), let key = self.string() else { return nil }
            self.skipWhitespace()
            guard self.peek == UInt8(ascii: ":") else { return nil }
            self.index += 1
            self.skipWhitespace()
            guard let value = self.value(depth: depth + 1) else { return nil }
            // A duplicate key is left to JSONDecoder (it keeps the first one).
            guard members.updateValue(value, forKey: key) == nil else { return nil }
            self.skipWhitespace()
            switch self.peek {
            case UInt8(ascii: ","):
                self.index += 1
                self.skipWhitespace()
            case UInt8(ascii: "}"):
                self.index += 1
                return .object(members)
            default:
                return nil
            }
        }
    }

    mutating func array(depth: Int) -> MockJSON? {
        self.index += 1  // [
        var items: [MockJSON] = []
        self.skipWhitespace()
        if self.peek == UInt8(ascii: "]") {
            self.index += 1
            return .array(items)
        }
        while true {
            guard let item = self.value(depth: depth + 1) else { return nil }
            items.append(item)
            self.skipWhitespace()
            switch self.peek {
            case UInt8(ascii: ","):
                self.index += 1
                self.skipWhitespace()
            case UInt8(ascii: "]"):
                self.index += 1
                return .array(items)
            default:
                return nil
            }
        }
    }

    /// A string starting at the opening quote; raw bytes must be valid UTF-8 without control characters.
    mutating func string() -> String? {
        self.index += 1  // "
        let start = self.index
        // Fast path: no escapes.
        while let byte = self.peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            self.index += 1
        }
        guard let stop = self.peek else { return nil }
        var utf8 = Array(self.bytes[start..<self.index])
        if stop == UInt8(ascii: "\"") {
            self.index += 1
            return Self.validUTF8(utf8)
        }
        // With escapes.
        while let byte = self.peek {
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return Self.validUTF8(utf8)
            case UInt8(ascii: "\\"):
                guard let escaped = self.peek else { return nil }
                self.index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    // Surrogates (pairs or lone) are left to JSONDecoder.
                    guard let code = self.hex4(), !(0xD800...0xDFFF).contains(code),
                        let scalar = Unicode.Scalar(code)
                    else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// `bytes` as a string if they are valid UTF-8 (decoding repairs invalid bytes, so a repaired result differs).
    static func validUTF8(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Four hex digits of a `\u` escape.
    mutating func hex4() -> UInt32? {
        guard self.bytes.count - self.index >= 4 else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = self.bytes[self.index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
            self.index += 1
        }
        return code
    }

    /// A number with JSON's grammar whose value is a normal double or an exact zero.
    mutating func number() -> MockJSON? {
        let start = self.index
        var nonZeroDigit = false
        func digits(_ scanner: inout StrictScanner, countingNonZero: Bool) -> Int {
            var count = 0
            while let byte = scanner.peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if countingNonZero, byte != UInt8(ascii: "0") { nonZeroDigit = true }
                scanner.index += 1
                count += 1
            }
            return count
        }
        if self.peek == UInt8(ascii: "-") { self.index += 1 }
        if self.peek == UInt8(ascii: "0") {
            self.index += 1
        } else {
            guard digits(&self, countingNonZero: true) > 0 else { return nil }
        }
        if self.peek == UInt8(ascii: ".") {
            self.index += 1
            guard digits(&self, countingNonZero: true) > 0 else { return nil }
        }
        if self.peek == UInt8(ascii: "e") || self.peek == UInt8(ascii: "E") {
            self.index += 1
            if self.peek == UInt8(ascii: "+") || self.peek == UInt8(ascii: "-") { self.index += 1 }
            guard digits(&self, countingNonZero: false) > 0 else { return nil }
        }
        guard self.index - start <= 64 else { return nil }
        let text = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
        guard let value = Double(text) else { return nil }
        // Overflow, underflow and subnormals are left to JSONDecoder (it refuses some of them).
        guard value.isNormal || (value == 0 && !nonZeroDigit) else { return nil }
        return .number(value)
    }
}
