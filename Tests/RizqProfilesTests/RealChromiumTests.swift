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
        let page = BrowserTestPage()
        let pagePath = home.path + "/page.html"
        try page.html(after: "document.write('<p id=\"stored\">' + localStorage.length + ' items</p>');")
            .write(toFile: pagePath, atomically: true, encoding: .utf8)

        // The page stores, the DOM is printed after load, the browser shuts down: then the
        // storage is on disk.
        let (browser, output, _) = try launch(["--dump-dom"], page: pagePath, home: home.path)
        guardAgainstHang(browser)
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        browser.waitUntilExit()
        XCTAssertEqual(browser.terminationStatus, 0)
        XCTAssertTrue(dom.contains("<p id=\"stored\">\(page.items.count) items</p>"), "the page did not store everything")
        try FileManager.default.removeItem(atPath: pagePath)

        let userData = home.path + "/chromium"
        let before = fingerprint(userData)
        let storage = try readStorage(userData)
        XCTAssertEqual(storage.kind, .chromiumLevelDB)
        XCTAssertEqual(storage.location.path, userData + "/Default/Local Storage/leveldb")
        XCTAssertEqual(storage.origins.map(\.origin), ["file://"])
        let origin = try XCTUnwrap(storage.origins.first)
        try assertStoredExactly(origin, page: page)
        // Chromium's own choice of format byte: Latin-1 when every code unit fits in a byte.
        func encoding(_ key: String) -> StoredString.Encoding? { origin.items.first { $0.key.text == key }?.value.encoding }
        XCTAssertEqual(encoding("latin1"), .latin1)
        XCTAssertEqual(encoding("c1"), .latin1)
        XCTAssertEqual(encoding("empty"), .latin1)
        XCTAssertEqual(encoding("arabic"), .utf16LE)
        XCTAssertEqual(origin.items.first { $0.key.text == "مفتاح" }?.key.encoding, .utf16LE)
        XCTAssertEqual(fingerprint(userData), before, "reading changed the profile")

        // Dry run and real import through the command-line tool.
        try assertImportsThroughCLI(from: userData, origin: "file://", page: page, appID: "com.rizq.chromium")
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
