import Foundation
import PayCheckCommands
import PayCheckCore
import Testing

@Suite("suite and pack discovery")
struct SuiteSelectionTests {
    static let suite = "suite: s\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n"

    @Test("packs are found in PAYCHECK_PACKS first, then Packs/ here, then beside the binary; dot folders and paths are no pack names")
    func packDiscovery() throws {
        let configured = try Scratch(files: ["mollie/a.yaml": Self.suite, ".hidden/a.yaml": Self.suite])
        let here = try Scratch(files: ["Packs/mollie/b.yaml": Self.suite, "Packs/khipu/c.yaml": Self.suite])
        let installed = try Scratch(files: ["share/paycheck/Suites/x.yaml": Self.suite, "share/paycheck/Packs/yuno/d.yaml": Self.suite, "bin/paycheck": ""])
        let suites = try #require(SuiteLocations.installedSuites(beside: installed.folder.appendingPathComponent("bin/paycheck")))
        #expect(suites.standardizedFileURL.path == installed.path("share/paycheck/Suites"))
        let locations = SuiteLocations(folder: here.folder.path, packsVariable: configured.folder.path, installedSuites: suites)
        #expect(locations.packNames == ["khipu", "mollie", "yuno"])
        #expect(locations.packFolder("mollie") == configured.path("mollie"))
        #expect(locations.packFolder("khipu") == here.path("Packs/khipu"))
        #expect(locations.packFolder("yuno")?.hasSuffix("share/paycheck/Packs/yuno") == true)
        #expect(locations.packFolder("../mollie") == nil && locations.packFolder(".hidden") == nil && locations.packFolder("mit") == nil)
        #expect(SuiteLocations(packsVariable: "").packsVariable == nil)
        #expect(SuiteLocations.installedSuites(beside: here.folder.appendingPathComponent("bin/paycheck")) == nil)

        let loaded = SuiteSelection(contract: "contract.yaml", packs: ["khipu", "mollie"], locations: locations).load()
        #expect(Set(loaded.result.suites.map(\.file)) == [configured.path("mollie/a.yaml"), here.path("Packs/khipu/c.yaml")])
        #expect(loaded.notice == nil)
    }

    @Test("an unknown pack is a diagnostic with the nearest name, the known ones, or none installed; a pack without --contract is refused")
    func unknownPack() throws {
        let packs = try Scratch(files: ["mollie/a.yaml": Self.suite, "placetopay/b.yaml": Self.suite])
        let empty = try Scratch()
        let locations = SuiteLocations(folder: empty.folder.path, packsVariable: packs.folder.path)
        func hints(_ names: [String], _ locations: SuiteLocations) -> [String] {
            SuiteSelection(contract: "c.yaml", packs: names, locations: locations).load().result.diagnostics.map { "\($0.message): \($0.hint ?? "")" }
        }
        #expect(hints(["molie"], locations) == ["no merchant pack 'molie': did you mean 'mollie'?"])
        #expect(hints(["zzzzzz"], locations) == ["no merchant pack 'zzzzzz': known packs: mollie, placetopay"])
        #expect(hints(["mollie"], SuiteLocations(folder: empty.folder.path)) == ["no merchant pack 'mollie': no packs are installed"])
        let withoutContract = SuiteSelection(packs: ["mollie"], locations: locations)
        var result = withoutContract.load().result
        #expect(withoutContract.loadContract(into: &result) == nil)
        #expect(result.diagnostics.map(\.message).contains("--pack runs against a merchant's backend and needs --contract FILE"))
    }

    @Test("with no path: Suites/ here, else suites/ (said once), else the installed suites (said), else a hint to give a path or init")
    func defaultFolder() throws {
        let upper = try Scratch(files: ["Suites/a.yaml": Self.suite])
        let loaded = SuiteSelection(locations: SuiteLocations(folder: upper.folder.path)).load()
        #expect(loaded.notice == nil && loaded.result.suites.count == 1)

        let lower = try Scratch(files: ["suites/a.yaml": Self.suite])
        let fromLower = SuiteSelection(locations: SuiteLocations(folder: lower.folder.path)).load()
        #expect(fromLower.notice == "no Suites/ here: reading suites/" && fromLower.result.suites.count == 1)

        let installed = try Scratch(files: ["Suites/a.yaml": Self.suite])
        let nothing = try Scratch()
        let fromInstalled = SuiteSelection(locations: SuiteLocations(folder: nothing.folder.path, installedSuites: installed.folder.appendingPathComponent("Suites"))).load()
        #expect(fromInstalled.notice == "no Suites/ here: reading the built-in suites in \(installed.path("Suites"))")

        let none = SuiteSelection(locations: SuiteLocations(folder: nothing.folder.path)).load(commands: ["states"])
        #expect(none.notice == nil)
        #expect(none.result.diagnostics.first?.hint?.contains("create a first suite with 'paycheck init'") == true, "not 'did you mean paycheck states'")
    }

    @Test("a missing path that is a provider names its suites' folder; one near a command names the command")
    func missingPathHints() throws {
        let here = try Scratch(files: ["Suites/placetopay/a.yaml": Self.suite])
        let locations = SuiteLocations(folder: here.folder.path)
        let provider = SuiteSelection(given: ["placetopay"], locations: locations).load().result
        #expect(
            provider.diagnostics.first?.hint
                == "'placetopay' is a provider: give its suites' folder (\(here.path("Suites/placetopay"))), or run every suite and keep its cases with --filter placetopay")
        let command = SuiteSelection(given: ["lnt"], locations: locations).load(commands: ["run", "lint", "list"]).result
        #expect(command.diagnostics.first?.message.contains("no such file or folder 'lnt'") == true)
        #expect(command.diagnostics.first?.hint == "did you mean the command 'paycheck lint'?")
    }

    @Test("a merchant: step without --contract is located and refused")
    func merchantStepNeedsContract() throws {
        let scratch = try Scratch(files: [
            "m.yaml": "suite: m\nprovider: mollie\ncases:\n  - name: c\n    steps:\n      - merchant: checkout\n"
        ])
        let selection = SuiteSelection(given: [scratch.path("m.yaml")])
        var result = selection.load().result
        #expect(selection.loadContract(into: &result) == nil)
        #expect(
            result.diagnostics.contains { $0.message == "'merchant: checkout' needs the merchant's backend: give --contract FILE" && $0.location?.line == 6 },
            "\(result.diagnostics)")
    }

    @Test("colour: FORCE_COLOR turns it on off a terminal, NO_COLOR wins over it, --color never wins over both")
    func color() {
        #expect(ColorMode.auto.colored(environment: ["NO_COLOR": "", "FORCE_COLOR": "1"], isTerminal: false))
        #expect(!ColorMode.auto.colored(environment: ["NO_COLOR": "", "FORCE_COLOR": "0"], isTerminal: false))
        #expect(!ColorMode.auto.colored(environment: ["FORCE_COLOR": "false"], isTerminal: false))
        #expect(!ColorMode.auto.colored(environment: ["NO_COLOR": "1", "FORCE_COLOR": "1"], isTerminal: true))
        #expect(!ColorMode.never.colored(environment: ["NO_COLOR": "", "FORCE_COLOR": "1"], isTerminal: true))
        #expect(ColorMode.auto.colored(environment: [:], isTerminal: true) && ColorMode.always.colored(environment: ["NO_COLOR": "1"], isTerminal: false))
    }
}
