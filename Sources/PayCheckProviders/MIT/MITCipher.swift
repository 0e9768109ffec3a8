import _CryptoExtras
import Crypto
import Foundation

/// MIT Centro de Pagos' message cipher, shared by the adapter (which encrypts requests and decrypts answers) and the
/// mock (the reverse): AES-128-CBC with PKCS7 padding, the key given as 32 hex characters and hex-decoded, a random
/// 16-byte IV prepended to the ciphertext, the whole `IV || ciphertext` Base64-encoded (providers.md §5.1, confirmed
/// by §5.11 A1). Pure: the IV comes from the caller or from the system's random source, nothing else is read.
///
/// Decoding is tolerant the way MIT's own receivers are (§5.11 A2, C7): CR, LF, tabs are dropped and a space is read
/// as `+` (a form-decoded `+`). Everything else that is wrong is a distinct ``Failure``.
package enum MITCipher {
    /// How `IV || ciphertext` is written as text.
    package enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// Standard Base64 with padding and no line breaks — what every MIT channel uses (§5.1, §5.11 A2).
        case base64
        /// Upper-case hex, the legacy mobile `xmlA` variant §5.1 mentions and §5.11 A5 leaves unresolved; an option only.
        case hex
    }

    /// Why a key, a text or a ciphertext is refused; each case is its own, clearly worded failure.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key is not 32 hex characters (MIT gives its "llave" as 32 hex digits, §5.1). The SDK reports this
        /// class of failure as S002 "Excepción de llave" (§5.11 B1).
        case invalidKey(reason: String)
        /// The IV given for encryption is not 16 bytes.
        case invalidIV(byteCount: Int)
        /// The text is not Base64 (or hex): the first offending character and its offset, or a bad length.
        case invalidEncoding(encoding: Encoding, reason: String)
        /// The decoded bytes are too short to hold an IV and one block, or are not whole blocks.
        case truncated(byteCount: Int)
        /// The last block does not end in valid PKCS7 padding (wrong key, or altered ciphertext).
        case badPadding
        /// The decrypted bytes are not UTF-8 text.
        case notUTF8

        /// The SDK error code this failure corresponds to: S002 for a key exception (§5.11 B1), nil otherwise.
        package var sdkCode: String? {
            if case .invalidKey = self { return "S002" }
            return nil
        }

        package var description: String {
            switch self {
            case .invalidKey(let reason): "invalid MIT key: \(reason) (expected 32 hex characters)"
            case .invalidIV(let count): "invalid IV: \(count) bytes (expected 16)"
            case .invalidEncoding(let encoding, let reason): "not \(encoding == .base64 ? "Base64" : "hex"): \(reason)"
            case .truncated(let count):
                "truncated ciphertext: \(count) bytes (expected a 16-byte IV followed by one or more whole 16-byte blocks)"
            case .badPadding: "bad padding: the last block does not end in PKCS7 padding (wrong key or altered ciphertext)"
            case .notUTF8: "the decrypted bytes are not UTF-8 text"
            }
        }
    }

    /// The 16 key bytes of a 32-hex-character key (either case).
    static func keyBytes(hex: String) throws(Failure) -> [UInt8] {
        let characters = Array(hex.utf8)
        guard characters.count == 32 else {
            throw .invalidKey(reason: characters.isEmpty ? "empty" : "\(characters.count) characters")
        }
        guard let bytes = decodeHex(characters) else {
            let offset = characters.firstIndex { hexDigit($0) == nil } ?? 0
            throw .invalidKey(reason: "non-hex character at offset \(offset)")
        }
        return bytes
    }

    /// Encrypts `plaintext` (UTF-8) under the hex key with the given IV, or a fresh random one.
    package static func encrypt(
        _ plaintext: String, keyHex: String, iv: [UInt8]? = nil, encoding: Encoding = .base64
    ) throws(Failure) -> String {
        let key = try keyBytes(hex: keyHex)
        let ivBytes = iv ?? randomIV()
        guard ivBytes.count == 16 else { throw .invalidIV(byteCount: ivBytes.count) }
        let sealed: Data
        do {
            sealed = try AES._CBC.encrypt(Array(plaintext.utf8), using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: ivBytes))
        } catch {
            throw .invalidIV(byteCount: ivBytes.count)
        }
        let message = ivBytes + Array(sealed)
        switch encoding {
        case .base64: return Data(message).base64EncodedString()
        case .hex: return message.map { hexByte($0) }.joined()
        }
    }

    /// Decrypts `text` (Base64 or hex of `IV || ciphertext`) under the hex key to UTF-8 text.
    package static func decrypt(_ text: String, keyHex: String, encoding: Encoding = .base64) throws(Failure) -> String {
        let bytes = try decryptBytes(text, keyHex: keyHex, encoding: encoding)
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return string
    }

    /// Decrypts to the plaintext bytes; the checks run in a fixed order: key, encoding, length, padding.
    static func decryptBytes(_ text: String, keyHex: String, encoding: Encoding = .base64) throws(Failure) -> [UInt8] {
        let key = try keyBytes(hex: keyHex)
        let message = try decode(text, encoding: encoding)
        guard message.count >= 32, message.count % 16 == 0 else { throw .truncated(byteCount: message.count) }
        let opened: Data
        do {
            opened = try AES._CBC.decrypt(
                message[16...], using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: message[..<16]), noPadding: true)
        } catch {
            throw .truncated(byteCount: message.count)
        }
        let blocks = Array(opened)
        guard let last = blocks.last, (1...16).contains(last), blocks.suffix(Int(last)).allSatisfy({ $0 == last }) else {
            throw .badPadding
        }
        return Array(blocks.dropLast(Int(last)))
    }

    /// The bytes of `text` after the tolerated clean-up (CR/LF/tab dropped, space read as `+` for Base64).
    package static func decode(_ text: String, encoding: Encoding) throws(Failure) -> [UInt8] {
        var characters: [UInt8] = []
        characters.reserveCapacity(text.utf8.count)
        for character in text.utf8 where character != 0x0D && character != 0x0A && character != 0x09 {
            characters.append(character == 0x20 && encoding == .base64 ? UInt8(ascii: "+") : character)
        }
        switch encoding {
        case .hex:
            if let offset = characters.firstIndex(where: { hexDigit($0) == nil }) {
                throw .invalidEncoding(encoding: .hex, reason: "character \(describe(characters[offset])) at offset \(offset)")
            }
            guard characters.count % 2 == 0, let bytes = decodeHex(characters) else {
                throw .invalidEncoding(encoding: .hex, reason: "odd number of hex digits (\(characters.count))")
            }
            return bytes
        case .base64:
            if characters.isEmpty { throw .invalidEncoding(encoding: .base64, reason: "empty text") }
            let body = characters.prefix { $0 != UInt8(ascii: "=") }
            if let offset = body.firstIndex(where: { !isBase64Letter($0) }) {
                throw .invalidEncoding(encoding: .base64, reason: "character \(describe(characters[offset])) at offset \(offset)")
            }
            let padding = characters.count - body.count
            if padding > 2 || characters[body.count...].contains(where: { $0 != UInt8(ascii: "=") }) {
                throw .invalidEncoding(encoding: .base64, reason: "'=' padding only at the end, at most two")
            }
            guard characters.count % 4 == 0, let data = Data(base64Encoded: Data(characters)) else {
                throw .invalidEncoding(encoding: .base64, reason: "length \(characters.count) is not a padded multiple of 4")
            }
            return Array(data)
        }
    }

    /// 16 bytes from the system's secure random source.
    static func randomIV() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func isBase64Letter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2F
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    private static func decodeHex(_ characters: [UInt8]) -> [UInt8]? {
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = hexDigit(characters[index]), let low = hexDigit(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func describe(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? "'\(Character(UnicodeScalar(c)))'" : String(format: "0x%02X", c)
    }
}
