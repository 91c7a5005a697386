import Foundation
import XCTest
@testable import RizqMigration
@testable import RizqProfiles

/// Debian's real `chromium`, headless, writes `localStorage` on a local page; the profile is then
/// read back with the LevelDB reader and imported, dry run and real, through `rizq-prefs`.
/// The browser is synchronised on, never slept for: `--dump-dom` returns when the page has
/// loaded and the browser has shut down (flushing its storage); a running browser says it holds
/// the storage open with a console line.
final class RealChromiumTests: XCTestCase {
    static let chromium = "/usr/bin/chromium"

    /// What the page stores, key → value, in the order it stores them (each a JavaScript
    /// string literal's content, with the value it must read back as).
    private struct Stored {
        var key: String
        var script: String
        var expected: String?
    }

    private func requireChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            XCTFail("\(Self.chromium) is missing: scripts/install-deps installs Debian's chromium")
            throw XCTSkip("no chromium")
        }
    }

    /// Starts chromium headless on `page` with its own user-data folder and home.
    private func launch(_ arguments: [String], page: String, home: String) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--user-data-dir=" + home + "/chromium", "--no-first-run", "--no-default-browser-check",
            // Nothing of the test's keyring or network: passwords in a file, no background fetches.
            "--password-store=basic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ] + arguments + ["file://" + page]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, errors)
    }

    /// Ends `process` if it is still running after `seconds`: a guard against a hung browser,
    /// not a way to wait for it.
    private func guardAgainstHang(_ process: Process, seconds: Double = 180) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if process.isRunning { process.terminate() }
        }
    }

    func testChromiumWritesLocalStorageAndTheProfileReadsItBackExactly() throws {
        try requireChromium()
        try requireSecretService()
        let home = TemporaryFolder("rizq-chromium")
        let accessToken = FakeToken.jwt(subject: "chromium-test")
        let refreshToken = FakeToken.randomText(40)
        let session = #"{"access_token":"\#(accessToken)","token_type":"bearer","refresh_token":"\#(refreshToken)"}"#
        let big = String(repeating: "0123456789abcdef", count: 65_536)
        let items: [Stored] = [
            Stored(key: "ascii", script: "plain ascii", expected: "plain ascii"),
            Stored(key: "latin1", script: "café", expected: "café"),
            // U+0080 and U+009F: Latin-1 proper keeps them; Windows-1252 would read € and Ÿ.
            Stored(key: "c1", script: "\\u0080\\u009f", expected: "\u{80}\u{9F}"),
            Stored(key: "arabic", script: "مرحبا بالعالم", expected: "مرحبا بالعالم"),
            Stored(key: "emoji", script: "😀👍🏽🇸🇦", expected: "😀👍🏽🇸🇦"),
            Stored(key: "lone", script: "a\\uD83Db", expected: nil),
            Stored(key: "empty", script: "", expected: ""),
            Stored(key: "big", script: "\" + \"0123456789abcdef\".repeat(65536) + \"", expected: big),
            Stored(key: "مفتاح", script: "utf16 key", expected: "utf16 key"),
            Stored(key: "sb-rizqtest-auth-token", script: session.replacingOccurrences(of: "\"", with: "\\\""), expected: session),
        ]
        var script = items.map { "localStorage.setItem(\"\($0.key)\", \"\($0.script)\");" }
        script.append("localStorage.setItem(\"deleted\", \"soon gone\"); localStorage.removeItem(\"deleted\");")
        script.append("document.write('<p id=\"stored\">' + localStorage.length + ' items</p>');")
        let page = home.path + "/page.html"
        try ("<!doctype html><meta charset=\"utf-8\"><title>rizq</title><script>\n" + script.joined(separator: "\n") + "\n</script>\n")
            .write(toFile: page, atomically: true, encoding: .utf8)

        // The page stores, the DOM is printed after load, the browser shuts down: then the
        // storage is on disk.
        let (browser, output, _) = try launch(["--dump-dom"], page: page, home: home.path)
        guardAgainstHang(browser)
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        browser.waitUntilExit()
        XCTAssertEqual(browser.terminationStatus, 0)
        XCTAssertTrue(dom.contains("<p id=\"stored\">\(items.count) items</p>"), "the page did not store everything")
        try FileManager.default.removeItem(atPath: page)

        let userData = home.path + "/chromium"
        let before = fingerprint(userData)
        let storage = try readStorage(userData)
        XCTAssertEqual(storage.kind, .chromiumLevelDB)
        XCTAssertEqual(storage.location.path, userData + "/Default/Local Storage/leveldb")
        XCTAssertEqual(storage.origins.map(\.origin), ["file://"])
        let origin = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(origin.keyCount, items.count, "every key once; the deleted one is gone")
        XCTAssertNil(origin["deleted"])
        for item in items {
            let stored = try XCTUnwrap(origin.items.first { $0.key.text == item.key }, item.key)
            if let expected = item.expected {
                XCTAssertTrue(stored.value.text == expected, "\(item.key): the value read back differs")
            } else {
                XCTAssertNil(stored.value.text, item.key)
                XCTAssertEqual(stored.value.problem, "a lone UTF-16 surrogate (0xD83D) at code unit 1")
                XCTAssertEqual(stored.value.displayText, "a\\uD83Db")
            }
        }
        // Chromium's own choice of format byte: Latin-1 when every code unit fits in a byte.
        func encoding(_ key: String) -> StoredString.Encoding? { origin.items.first { $0.key.text == key }?.value.encoding }
        XCTAssertEqual(encoding("latin1"), .latin1)
        XCTAssertEqual(encoding("c1"), .latin1)
        XCTAssertEqual(encoding("empty"), .latin1)
        XCTAssertEqual(encoding("arabic"), .utf16LE)
        XCTAssertEqual(origin.items.first { $0.key.text == "مفتاح" }?.key.encoding, .utf16LE)
        XCTAssertEqual(fingerprint(userData), before, "reading changed the profile")

        // Dry run and real import through the command-line tool.
        let root = TemporaryFolder("rizq-chromium-root")
        let service = "org.rizq.tests.chromium.\(UUID().uuidString.prefix(8))"
        let secrets = SecretServiceStore(service: service)
        defer { _ = try? secrets.deleteSecret(forAccount: "sb-rizqtest-auth-token") }
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root.path
        let arguments = ["migrate", "--from", userData, "--app", "com.rizq.chromium", "--service", service, "--json"]
        let dry = try runCommand(builtProduct("rizq-prefs"), arguments + ["--dry-run"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(fileSnapshot(under: root.path), [:], "a dry run writes nothing")
        let real = try runCommand(builtProduct("rizq-prefs"), arguments, environment: environment)
        XCTAssertEqual(real.status, 0, real.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as? [String: Any])
        let reported = try XCTUnwrap(report["items"] as? [[String: Any]])
        let actions = Dictionary(uniqueKeysWithValues: reported.map { ($0["key"] as? String ?? "", $0["action"] as? String ?? "") })
        XCTAssertEqual(actions, [
            "ascii": "inferred", "latin1": "inferred", "c1": "inferred", "arabic": "inferred", "emoji": "inferred",
            "lone": "skipped", "empty": "inferred", "big": "inferred", "مفتاح": "inferred", "sb-rizqtest-auth-token": "secret",
        ])
        XCTAssertTrue((reported.first { $0["key"] as? String == "lone" }?["note"] as? String)?.contains("lone UTF-16 surrogate") == true)
        XCTAssertEqual(report["origin"] as? String, "file://")

        let suite = try SuiteStore(suite: "com.rizq.chromium", appID: "com.rizq.chromium", root: root.path)
        for item in items where item.expected != nil && item.key != "sb-rizqtest-auth-token" {
            XCTAssertTrue(suite.string(forKey: item.key) == item.expected, "\(item.key): the suite value differs")
        }
        XCTAssertNil(suite.object(forKey: "lone"))
        XCTAssertTrue(try secrets.secret(forAccount: "sb-rizqtest-auth-token") == session, "the session is in the Secret Service")
        for secret in [accessToken, refreshToken] {
            XCTAssertEqual(filesContaining(secret, under: root.path), [], "a token reached a suite file")
            XCTAssertFalse(dry.stdout.contains(secret) || real.stdout.contains(secret) || dry.stderr.contains(secret) || real.stderr.contains(secret), "a token is in the report")
        }
        XCTAssertEqual(fingerprint(userData), before, "importing changed the profile")
    }

    func testTheProfileIsReadWhileChromiumIsRunning() throws {
        try requireChromium()
        let home = TemporaryFolder("rizq-chromium")
        let page = home.path + "/page.html"
        // The page stores a value, then says so on the console, and the browser stays open.
        try """
            <!doctype html><meta charset="utf-8"><script>
            localStorage.setItem("theme", "dark");
            localStorage.setItem("café", "crème");
            console.log("rizq-stored " + localStorage.length);
            </script>
            """.write(toFile: page, atomically: true, encoding: .utf8)
        let (first, output, _) = try launch(["--dump-dom"], page: page, home: home.path)
        guardAgainstHang(first)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        first.waitUntilExit()

        try """
            <!doctype html><meta charset="utf-8"><script>
            localStorage.setItem("open", "yes");
            console.log("rizq-holding " + localStorage.length);
            </script>
            """.write(toFile: page, atomically: true, encoding: .utf8)
        let (browser, _, errors) = try launch(["--enable-logging=stderr", "--log-level=0"], page: page, home: home.path)
        guardAgainstHang(browser)
        defer {
            browser.terminate()
            browser.waitUntilExit()
        }
        var log = ""
        while !log.contains("rizq-holding 3") {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return XCTFail("chromium ended before the page ran") }
            log += String(decoding: chunk, as: UTF8.self)
        }
        // The browser holds the storage open (its LOCK taken): the read works from the copy.
        let storage = try readStorage(home.path + "/chromium")
        let origin = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(origin.origin, "file://")
        XCTAssertEqual(origin["theme"], "dark")
        XCTAssertEqual(origin["café"], "crème")
    }

}
