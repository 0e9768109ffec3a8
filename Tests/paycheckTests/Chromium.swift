import Foundation

/// Headless Chromium driven over the DevTools protocol through a pipe (`--remote-debugging-pipe`: Chromium reads
/// commands on fd 3 and writes answers and events on fd 4, each message ended by a NUL), with JavaScript switched off
/// for every page. Clicks and key presses are real input events; the DOM and the accessibility tree are read through
/// the protocol, so nothing runs inside the pages. The pipe is read with blocking calls on a thread of its own
/// (never on the concurrency pool, which other tests need to make progress).
final class Chromium: @unchecked Sendable {
    /// Debian's `chromium`, or another Chromium on the usual paths.
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Whether a missing Chromium fails the tests (`PAYCHECK_REQUIRE_CHROMIUM=1`, as `.ci/run` sets).
    static let required = ProcessInfo.processInfo.environment["PAYCHECK_REQUIRE_CHROMIUM"] == "1"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private let profile: URL
    private var buffer: [UInt8] = []
    private var events: [[String: Any]] = []
    private var nextID = 0
    private let watchdog: DispatchWorkItem
    /// Where the blocking pipe I/O happens.
    private let queue = DispatchQueue(label: "chromium-devtools-pipe")

    /// A value handed between the pipe's thread and the test (only one of them uses it at a time).
    private struct Unchecked<T>: @unchecked Sendable {
        let value: T
    }

    /// Runs `body` on the pipe's own thread.
    private func blocking<T>(_ body: @escaping () throws -> T) async throws -> T {
        let work = Unchecked(value: body)
        let result: Unchecked<T> = try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { Unchecked(value: try work.value()) }) }
        }
        return result.value
    }

    /// Starts Chromium; it is killed after `limit` seconds whatever happens, so a stuck page cannot hang the tests.
    init(limit: Double = 90) throws {
        guard let path = Self.path else { throw Failure(description: "Chromium is not installed (apt-get install chromium)") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-chromium-\(UUID().uuidString)")
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // fd 3 and 4 are the shell's stdin and stdout, handed over before both are pointed elsewhere.
        process.arguments = [
            "-c",
            #"exec "$0" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$1" "#
                + #"--blink-settings=scriptEnabled=false --remote-debugging-pipe about:blank 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null"#,
            path, profile.path,
        ]
        process.standardInput = commands
        process.standardOutput = answers
        try process.run()
        let process = self.process
        watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
    }

    deinit {
        watchdog.cancel()
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends `method` and waits for its answer's `result`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) async throws -> [String: Any] {
        try await blocking { try self.sendNow(method, params, session: session) }
    }

    /// Waits for event `method` of `session` (one that already arrived counts), and forgets the events before it.
    func wait(for method: String, session: String) async throws {
        try await blocking { try self.waitNow(for: method, session: session) }
    }

    /// `send`, on the pipe's thread.
    private func sendNow(_ method: String, _ params: [String: Any], session: String?) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        commands.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: message) + [0])
        while true {
            let answer = try read()
            if answer["id"] as? Int == nextID {
                if let error = answer["error"] as? [String: Any] { throw Failure(description: "\(method): \(error["message"] ?? error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            if answer["method"] != nil { events.append(answer) }
        }
    }

    /// `wait`, on the pipe's thread.
    private func waitNow(for method: String, session: String) throws {
        while true {
            if let index = events.firstIndex(where: { $0["method"] as? String == method && $0["sessionId"] as? String == session }) {
                events.removeFirst(index + 1)
                return
            }
            events.append(try read())
        }
    }

    /// The next message.
    private func read() throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                guard let object = try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else { continue }
                return object
            }
            let data = answers.fileHandleForReading.availableData
            guard !data.isEmpty else { throw Failure(description: "Chromium closed the pipe (it crashed, or ran out of time)") }
            buffer += data
        }
    }

    /// A page (a tab) of this browser.
    struct Page {
        let browser: Chromium
        let target: String
        let session: String

        /// The page's URL now.
        func url() async throws -> String {
            let info = try await browser.send("Target.getTargetInfo", ["targetId": target])
            return (info["targetInfo"] as? [String: Any])?["url"] as? String ?? ""
        }

        /// The page's document as HTML.
        func html() async throws -> String {
            let root = try await browser.send("DOM.getDocument", ["depth": 0], session: session)
            let id = (root["root"] as? [String: Any])?["nodeId"] as? Int ?? 0
            return try await browser.send("DOM.getOuterHTML", ["nodeId": id], session: session)["outerHTML"] as? String ?? ""
        }

        /// Clicks the middle of the element `selector` with the mouse.
        func click(_ selector: String) async throws {
            let root = try await browser.send("DOM.getDocument", ["depth": 0], session: session)
            let rootID = (root["root"] as? [String: Any])?["nodeId"] as? Int ?? 0
            let node = try await browser.send("DOM.querySelector", ["nodeId": rootID, "selector": selector], session: session)["nodeId"] as? Int ?? 0
            guard node != 0 else { throw Failure(description: "no element '\(selector)' on \(try await url())") }
            try await browser.send("DOM.scrollIntoViewIfNeeded", ["nodeId": node], session: session)
            let model = try await browser.send("DOM.getBoxModel", ["nodeId": node], session: session)["model"] as? [String: Any]
            let quad = model?["content"] as? [Double] ?? []
            guard quad.count == 8 else { throw Failure(description: "'\(selector)' has no box") }
            let x = (quad[0] + quad[4]) / 2, y = (quad[1] + quad[5]) / 2
            for type in ["mousePressed", "mouseReleased"] {
                try await browser.send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left", "clickCount": 1], session: session)
            }
        }

        /// Clicks `selector` and waits for the page it leads to.
        func clickAndWait(_ selector: String) async throws {
            try await click(selector)
            try await browser.wait(for: "Page.loadEventFired", session: session)
        }

        /// Presses `key` (`Tab`, `Enter`, `ArrowDown`, ` `) on the keyboard.
        func press(_ key: String) async throws {
            let codes: [String: (code: String, keyCode: Int, text: String?)] = [
                "Tab": ("Tab", 9, nil), "Enter": ("Enter", 13, "\r"), "ArrowDown": ("ArrowDown", 40, nil), " ": ("Space", 32, " "),
            ]
            guard let info = codes[key] else { throw Failure(description: "no key '\(key)'") }
            var down: [String: Any] = ["type": info.text == nil ? "rawKeyDown" : "keyDown", "key": key, "code": info.code, "windowsVirtualKeyCode": info.keyCode]
            if let text = info.text { down["text"] = text }
            try await browser.send("Input.dispatchKeyEvent", down, session: session)
            try await browser.send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": info.code, "windowsVirtualKeyCode": info.keyCode], session: session)
        }

        /// The accessibility tree's interesting nodes: role, name, and whether it has the focus.
        func accessibleNodes() async throws -> [(role: String, name: String, focused: Bool)] {
            let tree = try await browser.send("Accessibility.getFullAXTree", [:], session: session)
            return (tree["nodes"] as? [[String: Any]] ?? []).compactMap { node in
                guard node["ignored"] as? Bool != true, let role = (node["role"] as? [String: Any])?["value"] as? String else { return nil }
                let name = (node["name"] as? [String: Any])?["value"] as? String ?? ""
                let focused = (node["properties"] as? [[String: Any]] ?? []).contains {
                    $0["name"] as? String == "focused" && ($0["value"] as? [String: Any])?["value"] as? Bool == true
                }
                return (role, name, focused)
            }
        }
    }

    /// Opens `url` in a new tab and waits for it to load.
    func open(_ url: String) async throws -> Page {
        let target = try await send("Target.createTarget", ["url": "about:blank"])["targetId"] as? String ?? ""
        let session = try await send("Target.attachToTarget", ["targetId": target, "flatten": true])["sessionId"] as? String ?? ""
        try await send("Page.enable", session: session)
        try await send("Accessibility.enable", session: session)
        try await send("Page.navigate", ["url": url], session: session)
        try await wait(for: "Page.loadEventFired", session: session)
        return Page(browser: self, target: target, session: session)
    }
}
