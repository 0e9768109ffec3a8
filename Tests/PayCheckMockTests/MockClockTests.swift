import Foundation
import PayCheckCore
import Synchronization
import Testing

@testable import PayCheckMock

@Suite("Mock clock and journal")
struct MockClockTests {
    @Test("clock adds advances and set to the base time and resets to it")
    func clockArithmetic() {
        let clock = fixedClock()
        #expect(clock.now() == fixedBase)
        clock.advance(by: 90)
        #expect(clock.now() == fixedBase.addingTimeInterval(90))
        clock.set(to: fixedBase.addingTimeInterval(-3600))
        #expect(clock.now() == fixedBase.addingTimeInterval(-3600))
        clock.reset()
        #expect(clock.now() == fixedBase)
    }

    @Test("resetCount counts resets only, not advances or sets")
    func resetCount() {
        let clock = MockClock(base: { Date(timeIntervalSince1970: 0) })
        #expect(clock.resetCount == 0)
        clock.advance(by: 60)
        clock.set(to: Date(timeIntervalSince1970: 10))
        #expect(clock.resetCount == 0)
        clock.reset()
        clock.reset()
        #expect(clock.resetCount == 2)
        #expect(clock.offsetSeconds == 0)
    }

    @Test("set keeps the offset so mock time flows with the base clock")
    func setFlowsWithBase() {
        let base = TestTimeSource(fixedBase)
        let clock = MockClock(base: { base.now })
        clock.set(to: fixedBase.addingTimeInterval(1000))
        base.now = fixedBase.addingTimeInterval(5)
        #expect(clock.now() == fixedBase.addingTimeInterval(1005))
    }

    @Test(
        "advance values parse with units",
        arguments: [
            ("31m", 1860.0), ("+31m", 1860), ("250ms", 0.25), ("10s", 10), ("2h", 7200), ("1d", 86_400),
            ("1.5h", 5400), ("90", 90), (" 5m ", 300), ("0", 0),
        ]
    )
    func advanceUnits(text: String, seconds: Double) throws {
        #expect(try ClockAdjustment.seconds(from: text) == seconds)
    }

    @Test("bad advance values are rejected quoting the value", arguments: ["31x", "m", "", "abc", "1e3m", "-5m", "5 m s", "0x10s", "infs"])
    func badAdvance(text: String) {
        #expect {
            try ClockAdjustment.seconds(from: text)
        } throws: { error in
            (error as? ClockAdjustment.Problem)?.message.contains("'\(text)'") == true
        }
    }

    @Test("advances beyond ten years are rejected, never trapping", arguments: ["3651d", "213504d", "99999999999999999999"])
    func hugeAdvance(text: String) {
        #expect {
            try ClockAdjustment.seconds(from: text)
        } throws: { error in
            (error as? ClockAdjustment.Problem)?.message.contains("is longer than the limit of 3650d") == true
        }
        #expect(throws: ClockAdjustment.Problem.self) { try ClockAdjustment.seconds(from: .double(1e300)) }
    }

    @Test("journal keeps the newest entries in order when full")
    func journalRing() {
        let journal = RequestJournal(capacity: 3)
        for index in 1...5 {
            journal.record(Self.request(path: "/p/\(index)"))
        }
        #expect(journal.entries().map(\.path) == ["/p/3", "/p/4", "/p/5"])
        #expect(journal.entries(pathPrefix: "/p/4").map(\.path) == ["/p/4"])
        journal.clear()
        #expect(journal.entries().isEmpty)
    }

    @Test("journal truncates bodies to 64 KiB")
    func journalTruncates() {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: RecordedRequest.maximumBodyBytes + 10)
        let entry = RecordedRequest(method: "POST", path: "/x", query: "", headers: [], body: big, receivedAt: fixedBase)
        #expect(entry.body.utf8.count == RecordedRequest.maximumBodyBytes)
        #expect(entry.bodyTruncated)
    }

    @Test("the default outbound sender fails with a message naming the URL")
    func noOutbound() async {
        await #expect {
            _ = try await NoOutboundHTTP().post(url: "http://merchant.test/hook", headers: [], body: [])
        } throws: { error in
            String(describing: error).contains("'http://merchant.test/hook'")
        }
    }

    /// A journal entry for `path`.
    static func request(path: String) -> RecordedRequest {
        RecordedRequest(method: "GET", path: path, query: "", headers: [], body: [], receivedAt: fixedBase)
    }
}

/// A settable time source for clock tests.
final class TestTimeSource: Sendable {
    /// The time returned to the clock.
    private let value: Mutex<Date>

    /// Creates a source at `now`.
    init(_ now: Date) {
        self.value = Mutex(now)
    }

    /// The current time of the source.
    var now: Date {
        get { self.value.withLock { $0 } }
        set { self.value.withLock { $0 = newValue } }
    }
}
