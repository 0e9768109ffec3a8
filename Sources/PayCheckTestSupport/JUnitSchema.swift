import Foundation

/// Jenkins' `junit-10.xsd`, for the tests that validate JUnit reports with xmllint. The schema is not part of the
/// repository: its path comes from `PAYCHECK_JUNIT_XSD` (`.ci/run` sets it). Without the variable those checks are
/// skipped with ``skipReason``; with it set, a missing schema file or a missing xmllint fails the check.
package enum JUnitSchema {
    /// The schema's path, when `PAYCHECK_JUNIT_XSD` names one.
    package static let path: String? = ProcessInfo.processInfo.environment["PAYCHECK_JUNIT_XSD"].flatMap { $0.isEmpty ? nil : $0 }

    /// Why a schema check does not run here.
    package static let skipReason = "set PAYCHECK_JUNIT_XSD to Jenkins' junit-10.xsd and install xmllint (apt-get install libxml2-utils)"

    /// xmllint's verdict on `file`: nil when valid, otherwise what it printed.
    package static func problems(in file: String) throws -> String? {
        guard let path else { return "PAYCHECK_JUNIT_XSD is not set" }
        let xmllint = "/usr/bin/xmllint"
        guard FileManager.default.isExecutableFile(atPath: xmllint) else { return "PAYCHECK_JUNIT_XSD is set but \(xmllint) is missing (apt-get install libxml2-utils)" }
        guard FileManager.default.fileExists(atPath: path) else { return "PAYCHECK_JUNIT_XSD names \(path), which does not exist" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--schema", path, file]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : message
    }
}
