import Foundation
import XCTest
@testable import RizqProfiles

/// Where `--from chrome|chromium|brave|edge|vivaldi|electron:<App>` looks, in a fake home.
final class ProfileLocatorTests: XCTestCase {
    /// A user-data folder with `Local State` and the given profiles (folder → shown name).
    private func makeUserData(_ folder: String, profiles: [(String, String)], lastUsed: String? = nil) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var cache: [String: Any] = [:]
        for (directory, name) in profiles {
            let leveldb = folder + "/" + directory + "/Local Storage/leveldb"
            try FileManager.default.createDirectory(atPath: leveldb, withIntermediateDirectories: true)
            let database = try LevelDBWriter(folder: leveldb)
            try database.put(LevelDBWriter.dataKey("https://\(directory.filter(\.isLetter).lowercased()).example", LevelDBWriter.chromiumBytes("k")), LevelDBWriter.chromiumBytes(name))
            _ = FileManager.default.createFile(atPath: folder + "/" + directory + "/Preferences", contents: Data("{}".utf8))
            cache[directory] = ["name": name]
        }
        var profile: [String: Any] = ["info_cache": cache]
        if let lastUsed { profile["last_used"] = lastUsed }
        let state = try JSONSerialization.data(withJSONObject: ["profile": profile])
        _ = FileManager.default.createFile(atPath: folder + "/Local State", contents: state)
    }

    func testEachBrowserIsFoundWhereItKeepsItsProfiles() throws {
        let home = TemporaryFolder("rizq-home")
        let locator = ProfileLocator(home: home.path, environment: ["HOME": home.path])
        let places: [(ChromiumBrowser, String)] = [
            (.chrome, ".config/google-chrome"),
            (.chromium, ".config/chromium"),
            (.brave, ".config/BraveSoftware/Brave-Browser"),
            (.edge, ".config/microsoft-edge"),
            (.vivaldi, ".config/vivaldi"),
        ]
        for (browser, relative) in places {
            XCTAssertThrowsError(try locator.locate(.browser(browser))) { error in
                guard case ProfileError.browserNotFound(let name, let looked)? = error as? ProfileError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, browser.displayName)
                XCTAssertEqual(looked.first, home.path + "/" + relative)
            }
            try makeUserData(home.path + "/" + relative, profiles: [("Default", "Person 1")])
            let location = try locator.locate(.browser(browser))
            XCTAssertEqual(location.path, home.path + "/" + relative + "/Default/Local Storage/leveldb")
            XCTAssertEqual(location.kind, .chromiumLevelDB)
            XCTAssertEqual(location.label, browser.displayName + " profile 'Default' (Person 1)")
        }
    }

    func testEnvironmentOverridesAndSandboxedInstalls() throws {
        let home = TemporaryFolder("rizq-home")
        // Snap Chromium, when there is no ~/.config/chromium.
        try makeUserData(home.path + "/snap/chromium/common/chromium", profiles: [("Default", "Snap")])
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: [:]).locate(.browser(.chromium)).path, home.path + "/snap/chromium/common/chromium/Default/Local Storage/leveldb")
        // $XDG_CONFIG_HOME moves every browser; $CHROME_CONFIG_HOME only Chrome and Chromium.
        let xdg = home.folder("xdg")
        try makeUserData(xdg + "/vivaldi", profiles: [("Default", "V")])
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: ["XDG_CONFIG_HOME": xdg]).locate(.browser(.vivaldi)).path, xdg + "/vivaldi/Default/Local Storage/leveldb")
        let chromeConfig = home.folder("chrome-config")
        try makeUserData(chromeConfig + "/google-chrome", profiles: [("Default", "C")])
        let environment = ["XDG_CONFIG_HOME": xdg, "CHROME_CONFIG_HOME": chromeConfig]
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: environment).locate(.browser(.chrome)).path, chromeConfig + "/google-chrome/Default/Local Storage/leveldb")
        XCTAssertThrowsError(try ProfileLocator(home: home.path, environment: environment).locate(.browser(.brave)))
        // Flatpak Brave.
        try makeUserData(home.path + "/.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser", profiles: [("Default", "B")])
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: environment).locate(.browser(.brave)).label, "Brave profile 'Default' (B)")
    }

    func testProfilesAreChosenByFolderOrShownName() throws {
        let home = TemporaryFolder("rizq-home")
        let userData = home.path + "/.config/chromium"
        try makeUserData(userData, profiles: [("Default", "Person 1"), ("Profile 1", "Work"), ("Profile 2", "Home")], lastUsed: "Profile 2")
        let locator = ProfileLocator(home: home.path, environment: [:])
        XCTAssertEqual(try locator.locate(.browser(.chromium)).path, userData + "/Default/Local Storage/leveldb", "Default unless asked")
        XCTAssertEqual(try locator.locate(.browser(.chromium), profile: "Work").path, userData + "/Profile 1/Local Storage/leveldb")
        XCTAssertEqual(try locator.locate(.browser(.chromium), profile: "Profile 2").path, userData + "/Profile 2/Local Storage/leveldb")
        XCTAssertEqual(try locator.locate(.browser(.chromium), profile: "work").path, userData + "/Profile 1/Local Storage/leveldb")
        XCTAssertThrowsError(try locator.locate(.browser(.chromium), profile: "School")) { error in
            XCTAssertEqual(error as? ProfileError, .profileNotFound(name: "School", folder: userData, available: ["Default (Person 1)", "Profile 1 (Work)", "Profile 2 (Home)"]))
            XCTAssertTrue("\(error)".contains("choose one of those with --profile"))
        }
        // Without Default: the last used profile; with none of them: the error lists them.
        try FileManager.default.removeItem(atPath: userData + "/Default")
        XCTAssertEqual(try locator.locate(.browser(.chromium)).path, userData + "/Profile 2/Local Storage/leveldb")
        try makeUserData(home.path + "/other", profiles: [("Profile 3", "A"), ("Profile 4", "B")])
        XCTAssertThrowsError(try locator.locate(.path(home.path + "/other"))) { error in
            XCTAssertEqual(error as? ProfileError, .profileRequired(folder: home.path + "/other", available: ["Profile 3 (A)", "Profile 4 (B)"]))
        }
        // --profile on a folder that is not a user-data folder is an error, not ignored.
        XCTAssertThrowsError(try locator.locate(.path(userData + "/Profile 1"), profile: "Work"))
        // The storage read is the chosen profile's.
        let storage = try ProfileStorage.read(try locator.locate(.browser(.chromium), profile: "Home"))
        XCTAssertEqual(storage.origins.map(\.origin), ["https://profile.example"])
        XCTAssertEqual(storage.origins.first?["k"], "Home")
    }

    func testElectronAppsAreFoundInTheConfigFolder() throws {
        let home = TemporaryFolder("rizq-home")
        let app = home.folder(".config/obsidian/Local Storage/leveldb")
        do {
            let database = try LevelDBWriter(folder: app)
            try database.put(LevelDBWriter.dataKey("app://obsidian.md", LevelDBWriter.chromiumBytes("theme")), LevelDBWriter.chromiumBytes("moonstone"))
        }
        let locator = ProfileLocator(home: home.path, environment: [:])
        for name in ["obsidian", "Obsidian"] {
            let location = try locator.locate(try ProfileSource("electron:" + name))
            XCTAssertEqual(location.path, app)
            XCTAssertEqual(location.label, "Electron app 'obsidian'")
        }
        XCTAssertThrowsError(try locator.locate(try ProfileSource("electron:Slack"))) { error in
            XCTAssertEqual(error as? ProfileError, .browserNotFound(name: "Electron app 'Slack'", looked: [home.path + "/.config/Slack"]))
        }
        for bad in ["electron:", "electron:../x", "electron:.."] {
            XCTAssertThrowsError(try ProfileSource(bad)) { XCTAssertEqual($0 as? ProfileError, .unknownSource(bad)) }
        }
        // An Electron app of 2016 kept legacy *.localstorage files in the same place.
        let legacy = home.folder(".config/Code/Local Storage") + "/file__0.localstorage"
        try sqlite(legacy, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL); INSERT INTO ItemTable VALUES ('zoom', CAST(X'3100' AS BLOB));")
        let code = try locator.locate(try ProfileSource("electron:Code"))
        XCTAssertEqual(code, ProfileLocation(kind: .webkitSQLite, path: home.path + "/.config/Code/Local Storage", label: "Electron app 'Code' (legacy *.localstorage files)"))
        XCTAssertEqual(try ProfileStorage.read(code).origins.first?["zoom"], "1")
        XCTAssertEqual(try ProfileSource("brave"), .browser(.brave))
        XCTAssertEqual(try ProfileSource("firefox"), .firefox)
        XCTAssertEqual(try ProfileSource("~/profile"), .path("~/profile"))
        XCTAssertEqual(try locator.locate(.path("~/.config/obsidian")).path, app, "~ is the home folder")
    }
}
