import Foundation

/// A strict JSON scanner over UTF-8 bytes that produces ``Value``; `nil` means "not sure", never "invalid".
///
/// Why: decoding `Value` through `JSONDecoder` tries each type in turn with `try?`, and every failed try
/// builds a `DecodingError`; under load (Benchmarks/, `wrk` on createSession) that was a third of the mock's
/// CPU time. This scanner accepts only plain RFC 8259 JSON — UTF-8 without a BOM, unique object keys,
/// strings without surrogate escapes, numbers that are normal doubles (or zero), nesting up to 64 levels —
/// for which `JSONDecoder` produces the same value. Anything else (invalid JSON, or valid JSON in one of
/// those corners, where `JSONDecoder` has its own rules: first duplicate key wins, trailing commas in arrays
/// are accepted, underflowing numbers are refused…) returns `nil`, and ``JSONText/parse(_:)-(some Collection<UInt8>)``
/// falls back to `JSONDecoder`, so what is accepted or refused does not change.
///
/// Numbers whose literal has no fraction and no exponent and fits in `Int` become `.int`; all others `.double`.
struct JSONScanner {
    /// Scans `bytes` as exactly one JSON value surrounded by optional whitespace.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var scanner = JSONScanner(bytes: bytes)
        scanner.skipWhitespace()
        guard let value = scanner.value(depth: 0) else { return nil }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { return nil }
        return value
    }

    /// The input.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The position of the next byte to read.
    var index = 0

    /// A scanner at the start of `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { self.index == self.bytes.count }

    /// The current byte, or `nil` at the end.
    var peek: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }

    /// Skips JSON whitespace.
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

    /// One value of any type, at most 64 levels deep.
    mutating func value(depth: Int) -> Value? {
        guard depth < 64, let byte = self.peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return self.object(depth: depth)
        case UInt8(ascii: "["): return self.array(depth: depth)
        case UInt8(ascii: "\""): return self.string().map(Value.string)
        // No `cond ? value : nil` here: `Value` is nil-expressible, so such a `nil` could become `.null`.
        case UInt8(ascii: "t"):
            guard self.take("true") else { return nil }
            return .bool(true)
        case UInt8(ascii: "f"):
            guard self.take("false") else { return nil }
            return .bool(false)
        case UInt8(ascii: "n"):
            guard self.take("null") else { return nil }
            return .null
        default: return self.number()
        }
    }

    /// An object starting at `{`; a duplicate key leaves the subset.
    mutating func object(depth: Int) -> Value? {
        self.index += 1  // {
        var members: [String: Value] = [:]
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

    /// An array starting at `[`.
    mutating func array(depth: Int) -> Value? {
        self.index += 1  // [
        var items: [Value] = []
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

    /// A number with JSON's grammar: `.int` when the literal is integral and fits, else a normal double or an exact zero.
    mutating func number() -> Value? {
        let start = self.index
        var nonZeroDigit = false
        var integral = true
        func digits(_ scanner: inout JSONScanner, countingNonZero: Bool) -> Int {
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
            integral = false
            guard digits(&self, countingNonZero: true) > 0 else { return nil }
        }
        if self.peek == UInt8(ascii: "e") || self.peek == UInt8(ascii: "E") {
            self.index += 1
            integral = false
            if self.peek == UInt8(ascii: "+") || self.peek == UInt8(ascii: "-") { self.index += 1 }
            guard digits(&self, countingNonZero: false) > 0 else { return nil }
        }
        guard self.index - start <= 64 else { return nil }
        let text = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
        if integral, let whole = Int(text) { return .int(whole) }
        guard let value = Double(text) else { return nil }
        // Overflow, underflow and subnormals are left to JSONDecoder (it refuses some of them).
        guard value.isNormal || (value == 0 && !nonZeroDigit) else { return nil }
        return .double(value)
    }
}
