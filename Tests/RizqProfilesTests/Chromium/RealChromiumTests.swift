import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// Debian's real `chromium`, headless, writes `localStorage` on a local page; the profile is then
/// read back with the LevelDB reader and imported, dry run and real, through `rizq-prefs`.
/// The browser is synchronised on, never slept for: the page says on the console that it has
/// stored (``BrowserProcess``), and the profile is read again at each change inotify reports
/// until it holds what was stored (``readOnceStored(_:watched:within:failsAtTheLimit:file:line:until:)``).
final class RealChromiumTests: XCTestCase {
    static let chromium = "/usr/bin/chromium"

    private func requireChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            XCTFail("\(Self.chromium) is missing: scripts/install-deps installs Debian's chromium")
            throw XCTSkip("no chromium")
        }
    }

    /// Starts chromium headless on `page` with its own user-data folder and home.
    private func launch(_ arguments: [String], page: String, home: String) throws -> BrowserProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        return try BrowserProcess(Self.chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--user-data-dir=" + home + "/chromium", "--no-first-run", "--no-default-browser-check",
            // Nothing of the test's keyring or network: passwords in a file, no background fetches.
            "--password-store=basic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            // localStorage commits within a second, without the rate limits that can hold a
            // megabyte of writes back for minutes.
            "--enable-aggressive-domstorage-flushing",
        ] + arguments + ["file://" + page], environment: environment)
    }

    /// Starts chromium on `page`, which stores what it stores and then logs `rizq-stored N` on
    /// the console; waits for that line, then until the profile on disk holds `count` keys of
    /// `file://` (Chromium commits `localStorage` after a delay, and one that quits at once may
    /// not commit it at all), reading it while Chromium runs. Returns the running browser.
    private func storeWithChromium(page: String, home: String, count: Int, file: StaticString = #filePath, line: UInt = #line) throws -> BrowserProcess {
        // Chromium commits within a second here. Once, in a full parallel run, it printed that
        // the page had stored and then wrote nothing for ten minutes: a browser that has not
        // written in two minutes is started once more on a new profile. The second start gets
        // the whole limit, and a reader that cannot read what was written fails both.
        for attempt in 1...2 {
            let browser = try launch(["--enable-logging=stderr", "--log-level=0"], page: page, home: home)
            guard let stored = browser.waitForLine(containing: "rizq-stored ", on: .stderr, file: file, line: line) else {
                browser.stop()
                throw CocoaError(.fileReadUnknown)
            }
            XCTAssertTrue(stored.contains("rizq-stored \(count)"), "the page did not store everything: \(stored)", file: file, line: line)
            let leveldb = home + "/chromium/Default/Local Storage/leveldb"
            XCTAssertTrue(FileManager.default.fileExists(atPath: leveldb + "/LOCK"), "chromium has not opened its storage", file: file, line: line)
            let firstTry = attempt == 1
            do {
                let read = try readOnceStored(
                    home + "/chromium", watched: leveldb, within: firstTry ? 120 : BrowserProcess.hangLimit, failsAtTheLimit: !firstTry,
                    file: file, line: line
                ) { storage in
                    storage.origins.first { $0.origin == "file://" }?.keyCount == count
                }
                if read != nil { return browser }
            } catch {
                browser.stop()
                throw error
            }
            browser.stop()
            try FileManager.default.removeItem(atPath: home + "/chromium")
        }
        throw CocoaError(.fileReadUnknown)
    }

    func testChromiumWritesLocalStorageAndTheProfileReadsItBackExactly() throws {
        try requireChromium()
        try requireSecretService()
        let home = TemporaryFolder("rizq-chromium")
        let page = BrowserTestPage()
        let pagePath = home.path + "/page.html"
        try page.html(after: "console.log('rizq-stored ' + localStorage.length);").write(toFile: pagePath, atomically: true, encoding: .utf8)

        // The page stores, Chromium commits it to disk, then quits.
        let browser = try storeWithChromium(page: pagePath, home: home.path, count: page.items.count)
        browser.stop()
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
        try """
            <!doctype html><meta charset="utf-8"><script>
            localStorage.setItem("theme", "dark");
            localStorage.setItem("café", "crème");
            console.log("rizq-stored " + localStorage.length);
            </script>
            """.write(toFile: page, atomically: true, encoding: .utf8)
        // Chromium stays open, holding the storage (its LOCK taken), once the values are on disk.
        let browser = try storeWithChromium(page: page, home: home.path, count: 2)
        defer { browser.stop() }

        // The read works from the copy, and leaves the storage as the browser has it.
        let storage = try readLeavingUnchanged(home.path + "/chromium", watched: home.path + "/chromium/Default/Local Storage")
        let origin = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(origin.origin, "file://")
        XCTAssertEqual(origin["theme"], "dark")
        XCTAssertEqual(origin["café"], "crème")
    }
}
