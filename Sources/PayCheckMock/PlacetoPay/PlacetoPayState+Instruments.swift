import Foundation
import PayCheckCore

/// The token endpoints of the OpenAPI file (`src/assets/apis/checkout/en.yaml`): `/api/instrument/invalidate`,
/// `/api/gateway/token` and `/api/gateway/information`.
extension PlacetoPayState {
    /// The stored card behind `token` or `subtoken` (OpenAPI `SimpleToken`: either one), if it belongs to `site`.
    func storedToken(token: String?, subtoken: String?, site: PlacetoPaySite) -> PlacetoPaySubscription? {
        let key = token ?? subtoken.flatMap { self.tokenOfSubtoken[$0] }
        guard let key, let stored = self.tokens[key], stored.login == site.login else { return nil }
        if let subtoken, stored.subtoken != subtoken { return nil }
        return stored
    }

    /// `POST /api/instrument/invalidate` `{instrument: {token: {token | subtoken}}}`: the token can no longer be
    /// used (`collect` then fails `XN`). Answers `OK`/`00`; an unknown token is 400 `FAILED`/`XN` "The token used is
    /// invalid" (OpenAPI `StatusResponse` examples).
    mutating func invalidateToken(_ body: [String: Value], site: PlacetoPaySite, now: Date) throws(PlacetoPayFailure)
        -> Value
    {
        let (token, subtoken) = try Self.tokenInstrument(body["instrument"]?.objectValue?["token"], now: now)
        guard let stored = self.storedToken(token: token, subtoken: subtoken, site: site) else {
            throw PlacetoPayFailure.invalidToken(at: now)
        }
        self.tokens[stored.token] = nil
        self.tokenOfSubtoken[stored.subtoken] = nil
        let locale = body["locale"]?.stringValue ?? site.locale
        return .object(["status": PlacetoPayStatus.cancelProcessed(at: now).json(locale: locale)])
    }

    /// `POST /api/gateway/token` `{instrument: {token | subtoken}}`: the tokenization (OpenAPI
    /// `GatewayTokenResponse`). `bin` is left out: PayCheck never writes card digits beyond the last four.
    func gatewayToken(_ body: [String: Value], site: PlacetoPaySite, now: Date) throws(PlacetoPayFailure) -> Value {
        let (token, subtoken) = try Self.tokenInstrument(body["instrument"], now: now)
        guard let stored = self.storedToken(token: token, subtoken: subtoken, site: site) else {
            throw PlacetoPayFailure.invalidToken(at: now)
        }
        let locale = body["locale"]?.stringValue ?? site.locale
        let validUntil = stored.validUntil(from: stored.status.date)  // yyyy-MM-dd
        let month = validUntil.dropFirst(5).prefix(2)
        let year = validUntil.dropFirst(2).prefix(2)
        return .object([
            "status": PlacetoPayStatus.cancelProcessed(at: now).json(locale: locale),
            "data": .object([
                "id": .int(Int(stored.subtoken.suffix(6)) ?? 1),
                "type": .string("card"),
                "token": .string(stored.token),
                "subtoken": .string(stored.subtoken),
                "franchise": .string(stored.card.brand.paymentMethod),
                "franchiseName": .string(stored.card.brand.paymentMethodName),
                "issuerName": .string("PayCheck Test Bank"),
                "lastDigits": .string(stored.card.lastDigits),
                "validUntil": .string("\(month)/\(year)"),
            ]),
        ])
    }

    /// `POST /api/gateway/information` `{instrument: {card: {number}} | {token: …}}`: how the card would be
    /// processed (OpenAPI `GatewayInformationResponse`): the network's service code, whether OTP or 3-D Secure is
    /// needed (from the test-card table of §1.10), and the installment credits. The card number is read, never
    /// kept or echoed.
    func gatewayInformation(_ body: [String: Value], site: PlacetoPaySite, now: Date) throws(PlacetoPayFailure)
        -> Value
    {
        let instrument = body["instrument"]?.objectValue ?? [:]
        let card: PlacetoPayCard
        if let number = instrument["card"]?.objectValue?["number"] {
            let digits = (number.stringValue ?? "").filter { $0 != " " && $0 != "-" }
            guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw PlacetoPayFailure.requestNotValid("The instrument.card.number field must be a card number", at: now)
            }
            card = PlacetoPayCard(number: digits, expiry: nil)
        } else if instrument["token"] != nil {
            let (token, subtoken) = try Self.tokenInstrument(instrument["token"], now: now)
            guard let stored = self.storedToken(token: token, subtoken: subtoken, site: site) else {
                throw PlacetoPayFailure.invalidToken(at: now)
            }
            card = stored.card
        } else {
            throw PlacetoPayFailure.requestNotValid("The instrument.card.number or instrument.token field is required", at: now)
        }
        let threeDS: String
        switch card.behaviour {
        case .challenge, .challengeThenPendingApproved, .attemptedThenPendingRejected, .approveFrictionless:
            threeDS = "required"
        case .exception:
            threeDS = "unsupported"
        default:
            threeDS = "optional"
        }
        let locale = body["locale"]?.stringValue ?? site.locale
        let language = PlacetoPayMessages.language(of: locale)
        return .object([
            "status": PlacetoPayStatus.processed(at: now).json(locale: locale),
            "provider": .string("PAYCHECK"),
            "serviceCode": .string(card.brand.franchise),
            "cardType": .string("C"),
            "cardTypes": .array([.string("C")]),
            "requireOtp": .bool(card.behaviour == .challenge),
            "requireCvv2": .bool(true),
            "threeDS": .string(threeDS),
            "credits": .array([
                .object([
                    "description": .string(language == "en" ? "Installments" : "Cuotas"),
                    "code": .string("0"), "groupCode": .string("C"), "type": .string("00"),
                    "installments": .array((1...36).map { .string(String($0)) }),
                ])
            ]),
        ])
    }

    /// The `token`/`subtoken` members of `value` (a `SimpleToken`); one of them is required.
    private static func tokenInstrument(_ value: Value?, now: Date) throws(PlacetoPayFailure) -> (String?, String?) {
        let object = value?.objectValue ?? [:]
        let token = object["token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let subtoken = object["subtoken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        guard token != nil || subtoken != nil else {
            throw PlacetoPayFailure.requestNotValid("The instrument token or subtoken field is required", at: now)
        }
        return (token, subtoken)
    }
}
