// MIT Centro de Pagos, WebPay Plus (providers.md §5): the shop's client.
import _CryptoExtras
import Crypto
import Foundation

/// MIT Centro de Pagos, WebPay Plus (providers.md §5.2, §5.3, §5.11), as the shop uses it: generate a payment link,
/// read the encrypted result MIT posts to the response URL. Both ways are AES-128-CBC under the merchant's key (32 hex
/// characters), a random IV before the ciphertext, PKCS7, Base64. WebPay Plus has no status query: the result is
/// the only truth, and only a result that decrypts with the key is one.
struct MITClient: Sendable {
    /// The base `/gen` is appended to.
    let baseURL: String
    let idCompany: String
    let idBranch: String
    let user: String
    /// Never logged.
    let password: String
    let data0: String
    /// The key, 32 hex characters; never logged.
    let keyHex: String
    /// Whether the link request's data is encrypted (`false` only with `SHOP_BUG=plain-mit`).
    var encrypts = true
    /// One IV for every message (`SHOP_BUG=reuse-iv`: wrong, §5.1 draws a random one per message); `nil` for a new one.
    var fixedIV: [UInt8]? = nil
    /// Whether the amount drops its trailing zeros (`SHOP_BUG=mit-amount-format`: `100.5`, not the documented `100.50`).
    var shortAmount = false
    /// One reference for every link (`SHOP_BUG=reuse-reference`); `nil` for the order's id.
    var fixedReference: String? = nil
    /// How to reach MIT.
    let http: ProviderHTTP

    /// The key's bytes.
    private var key: SymmetricKey? {
        let characters = Array(self.keyHex.utf8)
        guard characters.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: characters[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return SymmetricKey(data: bytes)
    }

    /// `text` encrypted: Base64(IV + AES-128-CBC(text)).
    func encrypt(_ text: String) throws -> String {
        guard let key else { throw ProviderError(description: "MIT_KEY must be 32 hex characters") }
        let iv = self.fixedIV ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        let sealed = try AES._CBC.encrypt(Array(text.utf8), using: key, iv: AES._CBC.IV(ivBytes: iv))
        return Data(iv + sealed).base64EncodedString()
    }

    /// The text of a Base64 blob (line breaks dropped, a space read as `+`, §5.11 A2); `nil` when it does not
    /// decrypt with the key.
    func decrypt(_ blob: String) -> String? {
        // By scalar: "\r\n" is one Character, which a Character filter for "\r" or "\n" would keep.
        var scalars = String.UnicodeScalarView()
        for scalar in blob.unicodeScalars where !["\r", "\n", "\t"].contains(scalar) { scalars.append(scalar == " " ? "+" : scalar) }
        let cleaned = String(scalars)
        guard let key, let data = Data(base64Encoded: cleaned), data.count > 16, (data.count - 16) % 16 == 0,
            let opened = try? AES._CBC.decrypt(Array(data.dropFirst(16)), using: key, iv: AES._CBC.IV(ivBytes: Array(data.prefix(16))))
        else { return nil }
        return String(bytes: opened, encoding: .utf8)
    }

    /// The text of element `name` in `xml` (the first one), unescaped; `nil` when it is absent.
    static func element(_ name: String, in xml: String) -> String? {
        if xml.contains("<\(name)/>") { return "" }
        guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            return nil
        }
        return String(xml[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `text` escaped for an XML element.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Generates the payment link for `order` (§5.2): the reference is the order's id; answers the link's id, its URL
    /// and the status (`open`).
    /// - Throws: ``ProviderError`` when MIT does not generate it.
    func create(_ order: Order) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: [])
        let e = Self.escape
        let document =
            "<P><business><id_company>\(e(self.idCompany))</id_company><id_branch>\(e(self.idBranch))</id_branch>"
            + "<user>\(e(self.user))</user><pwd>\(e(self.password))</pwd></business><url><reference>\(e(self.fixedReference ?? order.id))</reference>"
            + "<amount>\(self.shortAmount && amount.text.contains(".") ? String(amount.text.reversed().drop { $0 == "0" }.reversed()) : amount.text)</amount><moneda>\(e(order.currency))</moneda><canal>W</canal><omitir_notif_default>1</omitir_notif_default>"
            + "</url><version>IntegraWPP</version></P>"
        let data = self.encrypts ? try self.encrypt(document) : e(document)
        let envelope = "<pgs><data0>\(e(self.data0))</data0><data>\(data)</data></pgs>"
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "xml", value: envelope)]
        // Form encoding: `+` and the other reserved characters of Base64 percent-encoded.
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let reply = try await self.http.rawCall(
            "POST", "\(self.baseURL)/gen", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("User-Agent", "reference-shop/1.0")],
            body: Array(body.utf8))
        guard reply.status == 200, let answer = self.decrypt(reply.text) else {
            throw ProviderError(description: "MIT answered \(reply.status): \(reply.text.prefix(120))")
        }
        guard Self.element("cd_response", in: answer) == "success", let url = Self.element("nb_url", in: answer), !url.isEmpty else {
            let code = Self.element("cd_response", in: answer) ?? "?"
            throw ProviderError(description: "MIT refused the link: \(code) \(Self.element("nb_response", in: answer) ?? "")")
        }
        let id = url.split(separator: "/").last.map(String.init) ?? url
        return (id, .string(url), .open)
    }

    /// The order's status in a result MIT posted (§5.3, §5.11 D1): `approved` → paid, `denied` and `error` → failed;
    /// with the reference and the amount it names. `nil` when the blob does not decrypt with the key.
    func read(result blob: String) -> (reference: String, status: OrderStatus, amount: String)? {
        guard let xml = self.decrypt(blob), let reference = Self.element("reference", in: xml), let response = Self.element("response", in: xml)
        else { return nil }
        return (reference, response == "approved" ? .paid : .failed, Self.element("amount", in: xml) ?? "")
    }
}
