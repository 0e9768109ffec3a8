import Foundation
import PayCheckMock
import PayCheckProviders
import PayCheckTestSupport
import Testing

@testable import PayCheckRunner

@Suite("Redactor")
struct RedactorTests {
    /// A secret with every character the encodings treat specially.
    static let secret = #"S3nt-"q" <a&b> /p\q 'é' x+y 😀"#

    @Test("a secret is masked in every encoding, inside surrounding text", arguments: SecretEncodings.forms(of: RedactorTests.secret))
    func everyEncoding(form: (name: String, text: String)) {
        let redactor = Redactor(secrets: [RedactorTests.secret])
        let text = "before \(form.text) after"
        let redacted = redactor.redact(text)
        #expect(!redacted.contains(form.text), "\(form.name): \(redacted)")
        #expect(redacted.contains(Redactor.mask), "\(form.name)")
        #expect(redacted.hasPrefix("before "), "\(form.name): text around the secret stays")
    }

    @Test("a plain secret is masked in every Base64 alignment, standard and URL-safe", arguments: 0..<6)
    func base64Alignments(prefix: Int) {
        let secret = "tok_9f2bX4LQ"
        let redactor = Redactor(secrets: [secret])
        let encoded = Data((String(repeating: "x", count: prefix) + secret + "!").utf8).base64EncodedString()
        for text in [encoded, encoded.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")] {
            #expect(redactor.redact("Authorization-ish: \(text)").contains(Redactor.mask), "\(text)")
        }
    }

    @Test("text without a secret stays as it is")
    func unrelatedText() {
        let redactor = Redactor(secrets: ["tok_9f2bX4LQ", RedactorTests.secret])
        for text in [
            "hello world", #"{"a":"b\/c","n":12,"s":"caf\u00e9"}"#, "a=1&b=%20x+y&c=&amp;&lt;", "2026-11-24 10:00", "dG9rXzlm",
            "phone 300 123 4567", "0000 0000 0000 0001",
        ] {
            #expect(redactor.redact(text) == text)
        }
    }

    @Test("secrets shorter than four characters are refused and reported as such")
    func shortSecrets() {
        var redactor = Redactor()
        let short = redactor.add("abc")
        let empty = redactor.add("")
        let long = redactor.add("abcd")
        #expect(!short)
        #expect(empty, "an empty value is no secret")
        #expect(long)
        #expect(redactor.redact("abc abcd") == "abc \(Redactor.mask)")
        #expect(Redactor.isTooShort("ab") && !Redactor.isTooShort("") && !Redactor.isTooShort("abcd"))
    }

    @Test(
        "card numbers keep their last four digits, also written with spaces or dashes",
        arguments: [
            ("4110760000000081", "••••••••••••0081"),
            ("card 4110 7600 0000 0081.", "card •••• •••• •••• 0081."),
            ("4110-7600-0000-0081", "••••-••••-••••-0081"),
            ("ref 12 4110 7600 0000 0081", "ref 12 •••• •••• •••• 0081"),
            ("amex 3782 822463 10005", "amex •••• •••••• •0005"),
            ("19 digits 4000 0000 0000 0000 006", "19 digits •••• •••• •••• •••0 006"),
            (#"{"log":"paid\n4110760000000081\t"}"#, #"{"log":"paid\n••••••••••••0081\t"}"#),
        ])
    func cards(text: String, masked: String) {
        #expect(Redactor().redact(text) == masked)
    }

    @Test(
        "numbers that are not card numbers stay",
        arguments: [
            "4110 7600 0000 0082", "2026-11-24", "1 2 3 4 5 6 7 8 9 0 1 2 3", "4110 7600-0000 0081", "id 12345678901",
            // Digits glued to letters are part of a token (a hex signature, an id), even when they pass Luhn.
            "sha256:9ce9fe4110760000000081ab", "tr_4110760000000081", "x4110 7600 0000 0081",
        ])
    func notCards(text: String) {
        #expect(Redactor().redact(text) == text)
    }

    @Test("random texts of escapes, secret fragments and digits: no crash, and the secret never survives as written")
    func fuzz() {
        let secret = "p/q é+x 4110"
        let redactor = Redactor(secrets: [secret, RedactorTests.secret])
        let pieces = [
            "%", "%2", "%2F", "%c3%a9", "%E9", "\\", "\\u", "\\u00e9", "\\ud83d", "\\ude00", "&", "&#", "&#x", "&#39;", "&amp", "&amp;",
            "+", " ", "p/q", "é", "4110", " 7600 ", "-0000-", "0081", "UC9x", "cC9xIMOp", "=", "\u{1F600}", "\n", "x",
        ]
        for text in Self.randomTexts(pieces, seed: 0, count: 3000, maxPieces: 24, inserting: secret) {
            let redacted = redactor.redact(text)
            #expect(!redacted.contains(secret), "\(text)")
        }
    }

    /// `count` texts of fewer than `maxPieces` pieces each, from a fixed sequence (so a failure always reproduces);
    /// with `inserting`, one text in three also gets it at a random place.
    static func randomTexts(_ pieces: [String], seed: UInt64, count: Int, maxPieces: Int, inserting extra: String? = nil) -> [String] {
        var random = SplitMix(seed: seed)
        func next() -> Int { Int(truncatingIfNeeded: random.next() >> 1) }
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<(next() % maxPieces) { text += pieces[next() % pieces.count] }
            if let extra, next() % 3 == 0 { text.insert(contentsOf: extra, at: text.index(text.startIndex, offsetBy: next() % (text.count + 1))) }
            return text
        }
    }

    @Test("the fast paths agree with Foundation and the regular expression on text with Latin-1 letters, the mask, ß and combining marks")
    func fastPathsAgree() {
        let secrets = ["tok/secret", "clave-ñandú", "abce"]
        let redactor = Redactor(secrets: secrets, fieldNames: Redactor.FieldNames(PlacetoPayProvider().secretFieldNames))
        let asciiOnly = Redactor(secrets: ["tok/secret", "abce"], fieldNames: Redactor.FieldNames(PlacetoPayProvider().secretFieldNames))
        let pieces = [
            #"{"tranKey":""#, #"","#, #"""#, ":", " ", "\\", "\\n", "&password=", "?token=", "<password>", "</password>", "=", "&",
            "tok/secret", "clave-ñandú", "clave-n\u{0303}andu\u{0301}", "abce", "abc", "é", "e\u{0301}", "ó", "ñ", "Ñ", "PASSWORD", "paßword", "pass",
            "word", "La petición se ha procesado", "•", "\u{00A0}", "\u{0085}", "ß", "×", "¿", "x", "4110760000000081", "\n", "\u{1F600}", "K", "\u{212A}",
        ]
        for text in Self.randomTexts(pieces, seed: 7, count: 4000, maxPieces: 16) {
            #expect(redactor.redact(text) == redactor.redactWithoutFastPaths(text), "\(text)")
            #expect(asciiOnly.redact(text) == asciiOnly.redactWithoutFastPaths(text), "\(text)")
        }
    }

    @Test("an exchange is redacted again with a secret learnt later")
    func exchangeAgain() {
        var redactor = Redactor()
        let exchange = Exchange(
            method: "POST", url: "http://h/x?t=tok%2Fsecret", requestHeaders: [("X-T", "tok/secret")], requestBody: "", status: 200,
            responseHeaders: [], responseBody: #"{"token":"tok\/secret"}"#, duration: 0, error: nil)
        redactor.add("tok/secret")
        let again = redactor.redact(exchange)
        #expect(again.url == "http://h/x?t=\(Redactor.mask)")
        #expect(again.requestHeaders[0].value == Redactor.mask)
        #expect(again.responseBody == #"{"token":"\#(Redactor.mask)"}"#)
    }

    @Test("field names are the providers' own list: tranKey is masked by name once PlacetoPay's names are in, and the generic names are no provider's")
    func providerFieldNames() {
        let body = #"{"tranKey":"abc123xyz","nonce":"n"}"#
        #expect(Redactor().redact(body) == body)
        let placetopay = Redactor(fieldNames: Redactor.FieldNames(PlacetoPayProvider().secretFieldNames))
        #expect(placetopay.redact(body) == #"{"tranKey":"\#(Redactor.mask)","nonce":"n"}"#)
        #expect(placetopay.redactHeader(name: "TRANKEY", value: "abc123xyz") == Redactor.mask)
        // Each provider's names reach the runner's redactor: a header of each is masked.
        let all = Redactor.FieldNames(MockRegistry.providers.all.flatMap(\.secretFieldNames))
        for provider in MockRegistry.providers.all {
            for name in provider.secretFieldNames { #expect(all.contains(name), "\(provider.id): \(name)") }
        }
        let providerNames = Set(MockRegistry.providers.all.flatMap(\.secretFieldNames).map { $0.lowercased() })
        #expect(!Redactor.FieldNames.generic.contains("trankey") && providerNames.contains("trankey"))
    }
}
