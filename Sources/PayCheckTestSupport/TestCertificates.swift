package import Foundation
import Dispatch
import PayCheckMock
import PayCheckProviders

/// A throw-away certificate authority made at test time with `openssl`: a server certificate for 127.0.0.1, a client
/// certificate, both signed by the CA, and a second CA that signed neither (the wrong-CA case). Nothing is kept.
package struct TestCertificates: Sendable {
    /// The folder of the PEM files.
    package var folder: URL
    /// The CA's certificate.
    package var ca: String { path("ca.pem") }
    /// Another CA's certificate, which signed nothing here.
    package var otherCA: String { path("other-ca.pem") }
    /// The server's certificate (subjectAltName IP:127.0.0.1, DNS:localhost) and key.
    package var server: (certificate: String, key: String) { (path("server.pem"), path("server.key")) }
    /// The client's certificate and key.
    package var client: (certificate: String, key: String) { (path("client.pem"), path("client.key")) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Whether `openssl` is on the PATH (the tests that need it are skipped, saying so, when it is not).
    package static var isAvailable: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/openssl")
        }
    }

    /// ``make()`` on a thread of its own: openssl runs as child processes, and waiting on them must not hold one of
    /// the few threads every async test shares.
    package static func made() async throws -> TestCertificates {
        try await TestProcess.offPool { try make() }
    }

    /// Makes the files in a new temporary folder (EC P-256 keys, valid for two days).
    /// - Throws: ``InProcessError`` with openssl's output when a step fails.
    package static func make() throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
            .write(to: folder.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(to: folder.appendingPathComponent("client.ext"), atomically: true, encoding: .utf8)
        for ca in ["ca", "other-ca"] {
            try openssl(["req", "-x509"] + key + ["-keyout", "\(ca).key", "-out", "\(ca).pem", "-days", "2", "-subj", "/CN=PayCheck test \(ca)"], in: folder)
        }
        for leaf in ["server", "client"] {
            try openssl(["req"] + key + ["-keyout", "\(leaf).key", "-out", "\(leaf).csr", "-subj", "/CN=\(leaf == "server" ? "127.0.0.1" : "paycheck-client")"], in: folder)
            try openssl(
                [
                    "x509", "-req", "-in", "\(leaf).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "\(leaf).pem",
                    "-days", "2", "-extfile", "\(leaf).ext",
                ], in: folder)
        }
        return TestCertificates(folder: folder)
    }

    /// Removes the files.
    package func remove() { try? FileManager.default.removeItem(at: folder) }

    private static func openssl(_ arguments: [String], in folder: URL) throws {
        let (status, output) = try TestProcess.run("/usr/bin/env", ["openssl"] + arguments, in: folder)
        guard status == 0 else { throw InProcessError(message: "openssl \(arguments.joined(separator: " ")) failed: \(output)") }
    }
}

/// The mock's test credentials under each provider's `PAYCHECK_…` variable, as a merchant's CI sets them for a live
/// target that is the mock.
package enum MockCredentials {
    /// Every provider's variables.
    package static var environment: [String: String] {
        var environment: [String: String] = [:]
        for provider in MockRegistry.providers.all {
            for field in provider.credentialFields { environment[field.environmentVariable] = provider.mockCredentials[field.name] }
        }
        return environment
    }

    /// The built-in provider ids.
    package static var providerIDs: [String] { MockRegistry.providers.providerIDs }
}

/// Runs a program to its end in a test, its output and errors read together.
package enum TestProcess {
    /// Runs blocking work (child processes, pipes) on a Dispatch thread, off the Swift concurrency pool: on two
    /// cores that pool has two threads, and a test blocking them stalls every async test of the run.
    package static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `executable` with `arguments` in `folder`, with `environment` (the test's own when `nil`).
    package static func run(
        _ executable: String, _ arguments: [String], in folder: URL, environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
