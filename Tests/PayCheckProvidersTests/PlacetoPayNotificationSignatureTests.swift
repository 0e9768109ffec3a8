import PayCheckProviders
import Testing

/// Notification signatures: providers.md §1.9 vectors, the PHP SDK's vectors, tampering.
@Suite("PlacetoPay notification signature")
struct PlacetoPayNotificationSignatureTests {
    typealias Signature = PlacetoPayNotificationSignature

    static let sha256Vector = "sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae67"
    static let sha1Vector = "f4639999fc5d4293c43d299608d0ae77df024a33"

    @Test("SHA-256 signature matches the §1.9 vector")
    func sha256() {
        let signature = Signature.sign(
            requestId: 1234, status: "APPROVED", date: "2019-01-01T12:00:00-05:00", secretKey: "ABCD1234")
        #expect(signature == Self.sha256Vector)
    }

    @Test("SHA-1 signature matches the §1.9 vector and has no prefix")
    func sha1() {
        let signature = Signature.sign(
            requestId: 1234, status: "APPROVED", date: "2019-01-01T12:00:00-05:00", secretKey: "ABCD1234",
            algorithm: .sha1)
        #expect(signature == Self.sha1Vector)
    }

    @Test(
        "SHA-1 signatures match the dnetix/redirection NotificationTest vectors",
        arguments: [
            (83, "APPROVED", "2016-10-10T16:39:57-05:00", "8fb4beea130ab3e75a1de956bd0213892e0f6839"),
            (126, "REJECTED", "2016-10-12T01:44:37-05:00", "554fa6c36bd5d1376b192b8bc3a1e3dd9a01e448"),
        ])
    func sdkVectors(requestId: Int, status: String, date: String, expected: String) {
        #expect(Signature.sign(requestId: requestId, status: status, date: date, secretKey: "024h1IlD", algorithm: .sha1) == expected)
        #expect(Signature.verify(expected, requestId: requestId, status: status, date: date, secretKey: "024h1IlD", algorithm: .sha1))
    }

    @Test("valid signatures verify, including upper-case hex")
    func verifies() {
        #expect(
            Signature.verify(
                Self.sha256Vector, requestId: 1234, status: "APPROVED", date: "2019-01-01T12:00:00-05:00",
                secretKey: "ABCD1234"))
        #expect(
            Signature.verify(
                Self.sha1Vector.uppercased(), requestId: "1234", status: "APPROVED", date: "2019-01-01T12:00:00-05:00",
                secretKey: "ABCD1234", algorithm: .sha1))
    }

    @Test(
        "tampered signatures and fields are rejected",
        arguments: [
            // One hex digit changed.
            ("sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae68", 1234, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            // Truncated.
            ("sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae", 1234, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            // Prefix missing.
            ("4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae67", 1234, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            // Non-hex character.
            ("sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611aeg7", 1234, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            // Status, requestId, date or key changed.
            (sha256Vector, 1234, "REJECTED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            (sha256Vector, 1235, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1234"),
            (sha256Vector, 1234, "APPROVED", "2019-01-01T12:00:01-05:00", "ABCD1234"),
            (sha256Vector, 1234, "APPROVED", "2019-01-01T12:00:00-05:00", "ABCD1235"),
        ])
    func tampered(signature: String, requestId: Int, status: String, date: String, key: String) {
        #expect(!Signature.verify(signature, requestId: requestId, status: status, date: date, secretKey: key))
    }

    @Test("a SHA-1 signature is refused for a SHA-256 site, and vice versa")
    func noDowngrade() {
        let fields = (requestId: 1234, status: "APPROVED", date: "2019-01-01T12:00:00-05:00", key: "ABCD1234")
        #expect(
            !Signature.verify(
                Self.sha1Vector, requestId: fields.requestId, status: fields.status, date: fields.date,
                secretKey: fields.key, algorithm: .sha256))
        #expect(
            !Signature.verify(
                "sha256:" + Self.sha1Vector, requestId: fields.requestId, status: fields.status, date: fields.date,
                secretKey: fields.key, algorithm: .sha256))
        #expect(
            !Signature.verify(
                Self.sha256Vector, requestId: fields.requestId, status: fields.status, date: fields.date,
                secretKey: fields.key, algorithm: .sha1))
    }
}
