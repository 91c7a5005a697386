import CSQLite
import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// Debian's real `firefox-esr`, headless, writes `localStorage` on a local page; the profile is
/// then read back with the Firefox reader and imported, dry run and real, through `rizq-prefs`.
///
/// The browser is synchronised on, never slept for (``BrowserProcess``): with `-screenshot` Firefox loads the page
/// (whose inline script stores everything before the load ends), takes the screenshot and quits
/// cleanly, and LSNG writes its databases at that shutdown; a running Firefox says that the page
/// ran with a console line on stdout (`devtools.console.stdout.content`).
final class RealFirefoxTests: XCTestCase {
    static let firefox = "/usr/bin/firefox-esr"

    private func requireFirefox() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.firefox) else {
            XCTFail("\(Self.firefox) is missing: scripts/install-deps installs Debian's firefox-esr")
            throw XCTSkip("no firefox-esr")
        }
    }

    /// The environment of a browser with its own home and no session bus (so nothing of the
    /// test's keyring is touched).
    private func browserEnvironment(home: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["MOZ_LEGACY_HOME"] = nil
        return environment
    }

    /// Starts firefox-esr headless with `arguments`.
    private func launch(_ arguments: [String], home: String) throws -> BrowserProcess {
        try BrowserProcess(Self.firefox, ["-headless", "-no-remote"] + arguments, environment: browserEnvironment(home: home))
    }

    /// Runs Firefox on `page` until it has taken its screenshot and quit.
    private func storeWithFirefox(page: String, home: String, profile: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let profileArguments = profile.map { ["-profile", $0] } ?? []
        let browser = try launch(profileArguments + ["-screenshot", home + "/screenshot.png", "file://" + page], home: home)
        XCTAssertEqual(browser.waitUntilExit(file: file, line: line), 0, "firefox-esr failed: \(browser.text(.stderr).suffix(2000))", file: file, line: line)
    }

    /// A fresh profile folder whose `user.js` keeps LSNG on (Firefox's default) and start-up quiet.
    private func makeProfile(_ folder: String, extra: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let prefs = [
            #"user_pref("dom.storage.next_gen", true);"#,
            #"user_pref("browser.shell.checkDefaultBrowser", false);"#,
            #"user_pref("datareporting.policy.dataSubmissionEnabled", false);"#,
            #"user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);"#,
            #"user_pref("app.update.auto", false);"#,
        ] + extra
        try (prefs.joined(separator: "\n") + "\n").write(toFile: folder + "/user.js", atomically: true, encoding: .utf8)
    }

    func testFirefoxWritesLocalStorageAndTheProfileReadsItBackExactly() throws {
        try requireFirefox()
        try requireSecretService()
        let home = TemporaryFolder("rizq-firefox")
        let profile = home.path + "/profile"
        try makeProfile(profile)
        // Also a long value with a lone surrogate: Firefox keeps it as UTF-16 and compresses it.
        let page = BrowserTestPage(extra: [.init(key: "lone-long", script: "\" + \"x\".repeat(200) + \"\\uDC00", expected: nil)])
        let pagePath = home.path + "/page.html"
        try page.html().write(toFile: pagePath, atomically: true, encoding: .utf8)
        try storeWithFirefox(page: pagePath, home: home.path, profile: profile)

        let origin = "file://" + pagePath
        let before = fingerprint(profile)
        let storage = try readStorage(profile)
        XCTAssertEqual(storage.kind, .firefoxProfile)
        XCTAssertEqual(storage.location.path, profile)
        XCTAssertTrue(storage.origins.map(\.origin).contains(origin), "\(storage.origins.map(\.origin))")
        let stored = try XCTUnwrap(storage.origins.first { $0.origin == origin })
        try assertStoredExactly(stored, page: page)
        XCTAssertTrue(stored.items.filter { $0.value.text == nil }.allSatisfy { $0.value.encoding == .utf16LE })
        XCTAssertEqual(stored.items.first { $0.key.text == "lone-long" }?.value.problem, "a lone UTF-16 surrogate (0xDC00) at code unit 200")
        XCTAssertEqual(stored.warnings, [])

        // Firefox's own choices, seen in its database: each decoding path was taken.
        let originFolder = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: profile + "/storage/default").first { $0.hasPrefix("file+++") })
        let rows = try Self.rawRows(profile + "/storage/default/" + originFolder + "/ls/data.sqlite")
        XCTAssertEqual(rows["ascii"]?.conversion, 1)
        XCTAssertEqual(rows["big"]?.compression, 1, "a long value is snappy-compressed")
        XCTAssertEqual(rows["lone"]?.conversion, 0, "a lone surrogate is kept as UTF-16")
        XCTAssertEqual(rows["lone-long"].map { [$0.conversion, $0.compression] }, [0, 1], "UTF-16 and compressed")
        XCTAssertEqual(rows["empty"]?.type, "text", "the empty string is TEXT ''")
        XCTAssertEqual(fingerprint(profile), before, "reading changed the profile")

        let report = try assertImportsThroughCLI(from: profile, origin: origin, page: page, appID: "com.rizq.firefox")
        XCTAssertEqual(report["format"] as? String, ImportDump.Format.firefoxLSNG.rawValue)
        XCTAssertEqual(fingerprint(profile), before, "importing changed the profile")
    }

    /// `--from firefox` in a home where Firefox made its own profiles (profiles.ini, installs.ini,
    /// two profiles: the old-style default and this installation's).
    func testFromFirefoxFindsTheProfileFirefoxItselfUses() throws {
        try requireFirefox()
        let home = TemporaryFolder("rizq-firefox-home")
        let page = home.path + "/page.html"
        try "<!doctype html><meta charset=\"utf-8\"><script>localStorage.setItem(\"theme\", \"dark\");</script>\n".write(toFile: page, atomically: true, encoding: .utf8)
        try storeWithFirefox(page: page, home: home.path, profile: nil)

        // ~/.config/mozilla/firefox for a new user of a recent Firefox, ~/.mozilla/firefox before.
        let folder = try XCTUnwrap(FirefoxProfiles.dataFolders(home: home.path, environment: browserEnvironment(home: home.path))
            .first { FileManager.default.fileExists(atPath: $0 + "/profiles.ini") })
        let list = try FirefoxProfiles(folder: folder)
        XCTAssertEqual(list.profiles.count, 2, "Firefox makes 'default' and its own 'default-esr'")
        let own = try XCTUnwrap(list.profiles.first { $0.name == "default-esr" })
        XCTAssertEqual(list.installDefaults[FirefoxInstallHash.of(installFolder: "/usr/lib/firefox-esr")], own.path, "the install hash is Firefox's")

        var environment = browserEnvironment(home: home.path)
        environment["RIZQ_PREFS_HOME"] = home.path + "/rizq"
        let before = fingerprint(folder)
        let listed = try runCommand(builtProduct("rizq-prefs"), ["import-app", "--from", "firefox", "--list"], environment: environment)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("Firefox profile 'default-esr' (\(own.folderName)): \(own.path) (firefox-lsng)\n"), listed.stdout)
        let rows = listed.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertTrue(rows.contains(["file://" + page, "1", "9"]), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("dark"), "--list shows no values")

        // Another installation's default beside it: this machine's firefox-esr decides.
        if !FileManager.default.fileExists(atPath: "/usr/lib/firefox/application.ini") {
            let other = try XCTUnwrap(list.profiles.first { $0.name == "default" })
            let ini = try String(contentsOfFile: folder + "/profiles.ini", encoding: .utf8)
            try (ini + "\n[Install0123456789ABCDEF]\nDefault=\(other.folderName)\nLocked=1\n").write(toFile: folder + "/profiles.ini", atomically: true, encoding: .utf8)
            let again = try runCommand(builtProduct("rizq-prefs"), ["import-app", "--from", "firefox", "--list"], environment: environment)
            XCTAssertTrue(again.stdout.hasPrefix("Firefox profile 'default-esr'"), again.stdout + again.stderr)
            let chosen = try runCommand(builtProduct("rizq-prefs"), ["import-app", "--from", "firefox", "--profile", "default", "--list"], environment: environment)
            XCTAssertEqual(chosen.status, 0, chosen.stderr)
            XCTAssertTrue(chosen.stdout.contains("It holds no localStorage."), chosen.stdout)
            try ini.write(toFile: folder + "/profiles.ini", atomically: true, encoding: .utf8)
        }
        let after = fingerprint(folder).filter { $0.key != "profiles.ini" }
        XCTAssertEqual(after, before.filter { $0.key != "profiles.ini" }, "reading changed a profile")
    }

    /// A running Firefox holds its storage open: the read works from the private copy.
    func testTheProfileIsReadWhileFirefoxIsRunning() throws {
        try requireFirefox()
        let home = TemporaryFolder("rizq-firefox")
        let profile = home.path + "/profile"
        try makeProfile(profile, extra: [#"user_pref("devtools.console.stdout.content", true);"#])
        let page = home.path + "/page.html"
        try "<!doctype html><meta charset=\"utf-8\"><script>localStorage.setItem(\"theme\", \"dark\"); localStorage.setItem(\"café\", \"crème\");</script>\n"
            .write(toFile: page, atomically: true, encoding: .utf8)
        try storeWithFirefox(page: page, home: home.path, profile: profile)

        try "<!doctype html><meta charset=\"utf-8\"><script>localStorage.setItem(\"open\", \"yes\"); console.log(\"rizq-holding \" + localStorage.length);</script>\n"
            .write(toFile: page, atomically: true, encoding: .utf8)
        let browser = try launch(["-profile", profile, "file://" + page], home: home.path)
        defer { browser.stop() }
        guard let ran = browser.waitForLine(containing: "rizq-holding ", on: .stdout) else { return }
        XCTAssertTrue(ran.contains("rizq-holding 3"), "the page saw other storage than the first run left: \(ran)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: profile + "/lock") || FileManager.default.fileExists(atPath: profile + "/.parentlock"), "Firefox holds the profile")
        // The read works from the copy, and leaves the storage as the browser has it.
        let storage = try readLeavingUnchanged(profile, watched: profile + "/storage/default")
        let origin = try XCTUnwrap(storage.origins.first { $0.origin == "file://" + page })
        XCTAssertEqual(origin["theme"], "dark")
        XCTAssertEqual(origin["café"], "crème")
    }

    /// The `data` rows as stored: storage class of `value`, conversion and compression types.
    private static func rawRows(_ path: String) throws -> [String: (type: String, conversion: Int, compression: Int)] {
        let copy = TemporaryFolder("rizq-firefox-raw")
        try FileManager.default.copyItem(atPath: path, toPath: copy.path + "/data.sqlite")
        var handle: OpaquePointer?
        guard sqlite3_open_v2(copy.path + "/data.sqlite", &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else { throw NSError(domain: "sqlite", code: 1) }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT key, typeof(value), conversion_type, compression_type FROM data", -1, &statement, nil) == SQLITE_OK else { throw NSError(domain: "sqlite", code: 2) }
        defer { sqlite3_finalize(statement) }
        var rows: [String: (type: String, conversion: Int, compression: Int)] = [:]
        while sqlite3_step(statement) == SQLITE_ROW {
            let key = String(cString: sqlite3_column_text(statement, 0))
            rows[key] = (String(cString: sqlite3_column_text(statement, 1)), Int(sqlite3_column_int(statement, 2)), Int(sqlite3_column_int(statement, 3)))
        }
        return rows
    }
}
