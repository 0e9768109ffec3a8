import Foundation
package import NIOSSL

/// The mock served over HTTPS: its certificate, and optionally the CA a client's certificate must chain to
/// (`paycheck mock --tls-certificate … --tls-key … [--tls-client-ca …]`, and the live path's tests).
package enum MockTLS {
    /// A server configuration from PEM files.
    /// - Parameter clientCA: when given, a client must present a certificate signed by this CA.
    /// - Throws: ``MockHostError`` naming the file that cannot be used.
    package static func configuration(certificate: String, key: String, clientCA: String? = nil) throws -> TLSConfiguration {
        func read<T>(_ path: String, _ what: String, _ body: () throws -> T) throws -> T {
            guard FileManager.default.isReadableFile(atPath: path) else { throw MockHostError(message: "cannot read the \(what) '\(path)'") }
            do { return try body() } catch { throw MockHostError(message: "the \(what) '\(path)' is not PEM: \(error)") }
        }
        let chain = try read(certificate, "TLS certificate") { try NIOSSLCertificate.fromPEMFile(certificate) }
        let privateKey = try read(key, "TLS key") { try NIOSSLPrivateKey(file: key, format: .pem) }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        if let clientCA {
            let roots = try read(clientCA, "client CA") { try NIOSSLCertificate.fromPEMFile(clientCA) }
            configuration.trustRoots = .certificates(roots)
            configuration.certificateVerification = .noHostnameVerification
        }
        // Made once here, the context checks what each file alone cannot: that the key is the certificate's. Without
        // this a mismatched pair failed only when the host started, as `failedToLoadPrivateKey`.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw MockHostError(
                message: "the TLS key '\(key)' does not belong to the certificate '\(certificate)' (or either cannot be used: \(error)); "
                    + "give the key the certificate was made with")
        }
        return configuration
    }
}
