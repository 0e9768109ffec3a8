import Foundation
import PayCheckCore
import PayCheckProviders
import Testing

/// MIT's AES-128-CBC cipher against every vector of `Fixtures/mit.json` (providers.md §5.1, §5.11 A4), its
/// distinct rejections, and interoperation with OpenSSL in both directions.
@Suite("MIT cipher")
struct MITCipherTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name, key, iv, plaintext, ciphertext: String
        var wire: String?
        var testDescription: String { name }
    }

    static func vectors() throws -> [Vector] {
        let file = try #require(Bundle.module.url(forResource: "mit", withExtension: "json", subdirectory: "Fixtures"))
        let root = try #require(JSONText.parse(try String(contentsOf: file, encoding: .utf8)))
        return try #require(root["vectors"]?.arrayValue).map { item in
            Vector(
                name: item["name"]?.stringValue ?? "", key: item["key"]?.stringValue ?? "", iv: item["iv"]?.stringValue ?? "",
                plaintext: item["plaintext"]?.stringValue ?? "", ciphertext: item["ciphertext"]?.stringValue ?? "",
                wire: item["ciphertext_wire"]?.stringValue)
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        let characters = Array(hex.utf8)
        return stride(from: 0, to: characters.count, by: 2).map { UInt8(String(decoding: characters[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    static func failure(_ body: () throws(MITCipher.Failure) -> Any) -> MITCipher.Failure? {
        do { _ = try body() } catch { return error }
        return nil
    }

    @Test("every published vector decrypts to its plaintext and re-encrypts with its IV to the same Base64")
    func vectorsRoundTrip() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 18)
        for vector in vectors {
            #expect(try MITCipher.decrypt(vector.ciphertext, keyHex: vector.key) == vector.plaintext, "\(vector.name)")
            let sealed = try MITCipher.encrypt(vector.plaintext, keyHex: vector.key, iv: Self.bytes(hex: vector.iv))
            #expect(sealed == vector.ciphertext, "\(vector.name)")
        }
    }

    @Test("§5.1's [C] vector, exactly")
    func computedVector() throws {
        let key = "0123456789ABCDEF0123456789ABCDEF"
        let expected = "AAECAwQFBgcICQoLDA0OD31uOQ7VshYg+B8ahxChdJwpIOG+FQ0Lkh2UOcOR+HZ5"
        #expect(try MITCipher.encrypt("<P><amount>10.00</amount></P>", keyHex: key, iv: Array(0..<16)) == expected)
        #expect(try MITCipher.decrypt(expected, keyHex: key) == "<P><amount>10.00</amount></P>")
        #expect(try MITCipher.decrypt(expected, keyHex: key.lowercased()) == "<P><amount>10.00</amount></P>")
    }

    @Test("the notifications' wire form (URL-encoded, CRLF every 64 characters) decrypts after form decoding (§5.11 D2)")
    func wireForm() throws {
        let wired = try Self.vectors().filter { $0.wire != nil }
        #expect(wired.count == 3)
        for vector in wired {
            let formDecoded = FormText.percentDecode(Array(vector.wire!.utf8))
            #expect(formDecoded.contains("\r\n"), "\(vector.name)")
            #expect(try MITCipher.decrypt(formDecoded, keyHex: vector.key) == vector.plaintext, "\(vector.name)")
        }
        // A form-decoded `+` arrives as a space (§5.11 C7).
        let vector = try #require(try Self.vectors().first { $0.ciphertext.contains("+") })
        #expect(try MITCipher.decrypt(vector.ciphertext.replacingOccurrences(of: "+", with: " "), keyHex: vector.key) == vector.plaintext)
    }

    @Test("a random IV per message; both encodings round-trip, non-ASCII included (§5.11 A3)")
    func randomAndHex() throws {
        let key = "5DCC67393750523CD165F17E1EFADD21"
        let text = "<P><nb>Peña Ñandú</nb></P>"
        let first = try MITCipher.encrypt(text, keyHex: key)
        let second = try MITCipher.encrypt(text, keyHex: key)
        #expect(first != second)
        #expect(try MITCipher.decrypt(first, keyHex: key) == text)
        let hex = try MITCipher.encrypt(text, keyHex: key, iv: Array(repeating: 7, count: 16), encoding: .hex)
        #expect(hex.hasPrefix("07070707070707070707070707070707"))
        #expect(hex.allSatisfy { "0123456789ABCDEF".contains($0) })
        #expect(try MITCipher.decrypt(hex, keyHex: key, encoding: .hex) == text)
        #expect(try MITCipher.decrypt(hex.lowercased(), keyHex: key, encoding: .hex) == text)
    }

    @Test("bad key, bad Base64, truncated input and bad padding are distinct, clear failures")
    func rejections() throws {
        let key = "0123456789ABCDEF0123456789ABCDEF"
        let good = "AAECAwQFBgcICQoLDA0OD31uOQ7VshYg+B8ahxChdJwpIOG+FQ0Lkh2UOcOR+HZ5"

        let shortKey = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt(good, keyHex: String(key.dropLast())) }
        #expect(shortKey == .invalidKey(reason: "31 characters"))
        #expect(shortKey?.sdkCode == "S002")
        let nonHex = Self.failure { () throws(MITCipher.Failure) in try MITCipher.encrypt("x", keyHex: "Z" + key.dropFirst()) }
        #expect(nonHex == .invalidKey(reason: "non-hex character at offset 0"))
        #expect(Self.failure { () throws(MITCipher.Failure) in try MITCipher.encrypt("x", keyHex: "") } == .invalidKey(reason: "empty"))
        #expect(nonHex?.description.contains("32 hex characters") == true)

        let notBase64 = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt("AAEC!wQF" + good.dropFirst(8), keyHex: key) }
        #expect(notBase64 == .invalidEncoding(encoding: .base64, reason: "character '!' at offset 4"))
        #expect(notBase64?.sdkCode == nil)
        let badLength = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt(String(good.dropLast()), keyHex: key) }
        guard case .invalidEncoding(.base64, _) = badLength else { Issue.record("\(String(describing: badLength))"); return }
        let empty = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt("", keyHex: key) }
        #expect(empty == .invalidEncoding(encoding: .base64, reason: "empty text"))
        let badHex = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt("0G", keyHex: key, encoding: .hex) }
        #expect(badHex == .invalidEncoding(encoding: .hex, reason: "character 'G' at offset 1"))

        // 48 bytes → drop the last 4 Base64 characters (3 bytes): 45 bytes, not whole blocks.
        let cut = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt(String(good.dropLast(4)), keyHex: key) }
        #expect(cut == .truncated(byteCount: 45))
        let ivOnly = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt("AAECAwQFBgcICQoLDA0ODw==", keyHex: key) }
        #expect(ivOnly == .truncated(byteCount: 16))

        // The same message under another key: the padding of the last block does not check out.
        let otherKey = Self.failure { () throws(MITCipher.Failure) in try MITCipher.decrypt(good, keyHex: "00112233445566778899AABBCCDDEEFF") }
        #expect(otherKey == .badPadding)
        #expect(otherKey?.description.contains("padding") == true)

        // Distinct cases, distinct texts.
        let texts = [shortKey, notBase64, cut, otherKey].map { $0?.description ?? "" }
        #expect(Set(texts).count == 4)
    }

    @Test(
        "interoperates with openssl enc -aes-128-cbc in both directions",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs /usr/bin/openssl (apt-get install openssl)"))
    func openSSL() throws {
        let key = "5DCC67393750523CD165F17E1EFADD21"
        let iv: [UInt8] = [0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]
        let ivHex = iv.map { String(format: "%02x", $0) }.joined()
        let text = "<P><business><id_company>SNBX</id_company></business><url><reference>Peña-001</reference><amount>10.00</amount></url></P>"

        // PayCheck → OpenSSL: strip our IV, let OpenSSL decrypt the rest with the same key and IV.
        let ours = try MITCipher.encrypt(text, keyHex: key, iv: iv)
        let sealed = Array(try #require(Data(base64Encoded: ours)).dropFirst(16))
        let opened = try Self.openssl(["enc", "-d", "-aes-128-cbc", "-K", key, "-iv", ivHex], input: sealed)
        #expect(String(decoding: opened, as: UTF8.self) == text)

        // OpenSSL → PayCheck: prepend the IV to OpenSSL's ciphertext and decrypt.
        let theirs = try Self.openssl(["enc", "-aes-128-cbc", "-K", key, "-iv", ivHex], input: Array(text.utf8))
        #expect(try MITCipher.decrypt(Data(iv + theirs).base64EncodedString(), keyHex: key) == text)
        #expect(Data(iv + theirs).base64EncodedString() == ours)
    }

    static func openssl(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(output)
    }
}
