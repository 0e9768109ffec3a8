import Foundation
import PayCheckCore

/// The encodings a secret can travel in, computed independently of the redactor, for the redaction tests
/// (unit tests of the redactor and the sentinel test over every report).
package enum SecretEncodings {
    /// Every encoded form of `secret` the redactor must find, by name.
    package static func forms(of secret: String) -> [(name: String, text: String)] {
        let utf8 = Array(secret.utf8)
        var forms: [(String, String)] = [("as written", secret)]
        let percentUpper = utf8.map { isUnreserved($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        forms.append(("percent-encoded, upper-case hex", percentUpper))
        forms.append(("percent-encoded, lower-case hex", utf8.map { isUnreserved($0) ? String(UnicodeScalar($0)) : String(format: "%%%02x", $0) }.joined()))
        forms.append(("percent-encoded, %20 for a space", percentUpper))
        forms.append(("form-encoded, + for a space", utf8.map { $0 == 0x20 ? "+" : isUnreserved($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()))
        forms.append(("form-encoded by the runner", String(FormText.encode([("k", secret)]).dropFirst(2))))
        forms.append(("percent-encoded, only some characters", secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""))
        let json = JSONText.encode(.string(secret))
        forms.append(("JSON-escaped by the runner", String(json.dropFirst().dropLast())))
        if let data = try? JSONSerialization.data(withJSONObject: [secret], options: [.fragmentsAllowed]) {
            let text = String(decoding: data, as: UTF8.self)
            forms.append(("JSON-escaped by Foundation (\\/)", String(text.dropFirst(2).dropLast(2))))
        }
        forms.append(("JSON \\u escapes for every character", secret.utf16.map { String(format: "\\u%04x", $0) }.joined()))
        forms.append(("JSON \\u escapes, upper-case hex", secret.utf16.map { String(format: "\\u%04X", $0) }.joined()))
        forms.append(("HTML-escaped", html(secret, numeric: false)))
        forms.append(("HTML numeric references", html(secret, numeric: true)))
        let base64 = Data(utf8).base64EncodedString()
        forms.append(("Base64", base64))
        forms.append(("Base64 without padding", base64.replacingOccurrences(of: "=", with: "")))
        let urlSafe = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        forms.append(("Base64 URL-safe", urlSafe))
        forms.append(("Base64 URL-safe without padding", urlSafe.replacingOccurrences(of: "=", with: "")))
        for user in ["u", "us", "usr"] {
            let basic = Data("\(user):\(secret)".utf8).base64EncodedString()
            forms.append(("HTTP Basic Base64(\(user):secret)", basic))
            forms.append(("Base64 of a text holding the secret after '\(user)' and before more", Data("\(user)\(secret)-more".utf8).base64EncodedString()))
            let embeddedURLSafe = Data("\(user)=\(secret)&x".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            forms.append(("URL-safe Base64 of a text holding the secret after '\(user)'", embeddedURLSafe))
        }
        return forms
    }

    /// Unreserved URL characters (RFC 3986): never percent-encoded.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
    }

    /// HTML escaping: named references for `& < > "` and `&#39;` for `'`, or numeric references for every character.
    private static func html(_ text: String, numeric: Bool) -> String {
        text.unicodeScalars.map { scalar -> String in
            if numeric { return scalar.value % 2 == 0 ? "&#\(scalar.value);" : String(format: "&#x%X;", scalar.value) }
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            default: return String(scalar)
            }
        }.joined()
    }
}
