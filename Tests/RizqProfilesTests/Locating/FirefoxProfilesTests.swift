import Foundation
import XCTest
@testable import RizqProfiles

/// Where `--from firefox` looks and which profile it takes, in a fake home.
final class FirefoxProfilesTests: XCTestCase {
    /// Writes `profiles.ini` into `folder` and makes each profile folder with one origin whose
    /// only key is `profile` = the profile's name.
    private func makeFirefox(_ folder: String, _ ini: String, profiles: [String]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ini.write(toFile: folder + "/profiles.ini", atomically: true, encoding: .utf8)
        for name in profiles {
            let profile = folder + "/" + name
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: profile + "/prefs.js", contents: Data())
            try FirefoxFixture.makeLSNG(profile + "/storage/default/https+++app.rizq.io", origin: "https://app.rizq.io", rows: [.text("profile", name)])
        }
    }

    private let twoProfiles = """
        [Profile1]
        Name=default
        IsRelative=1
        Path=2pvjnlf3.default
        Default=1

        [Profile0]
        Name=default-esr
        IsRelative=1
        Path=m4bxbel5.default-esr

        [General]
        StartWithLastProfile=1
        Version=2

        """

    /// The install hashes Firefox itself wrote into profiles.ini on first runs from these folders
    /// (Debian's firefox-esr 153, copied to each folder), which cover every length branch of
    /// CityHash64 a path can take.
    func testInstallHashesAreFirefoxsOwn() {
        let observed = [
            "/f": "22D570DC56CF85E9",
            "/tmp/f": "A6D3ACA0BF6EDA95",
            "/tmp/ffx/inst/f": "9D05C9414DDF57EF",
            "/usr/lib/firefox-esr": "3B6073811A6ABF12",
            "/tmp/ffx/inst/a-rather-long-installation-folder-name-for-firefox-esr": "2F325A5417906A57",
        ]
        for (folder, hash) in observed {
            XCTAssertEqual(FirefoxInstallHash.of(installFolder: folder), hash, folder)
        }
    }

    func testTheDefaultIsThisInstallationsProfileNotTheOldDefault() throws {
        let home = TemporaryFolder("rizq-home")
        let folder = home.path + "/.config/mozilla/firefox"
        try makeFirefox(folder, twoProfiles + "[Install3B6073811A6ABF12]\nDefault=m4bxbel5.default-esr\nLocked=1\n", profiles: ["2pvjnlf3.default", "m4bxbel5.default-esr"])
        let locator = ProfileLocator(home: home.path, environment: ["HOME": home.path])
        let location = try locator.locate(.firefox)
        XCTAssertEqual(location, ProfileLocation(kind: .firefoxProfile, path: folder + "/m4bxbel5.default-esr", label: "Firefox profile 'default-esr' (m4bxbel5.default-esr)"))
        XCTAssertEqual(try ProfileStorage.read(location).origins.first?["profile"], "m4bxbel5.default-esr")
        // --profile by the name Firefox shows, by folder, ignoring case.
        XCTAssertEqual(try locator.locate(.firefox, profile: "default").path, folder + "/2pvjnlf3.default")
        XCTAssertEqual(try locator.locate(.firefox, profile: "2pvjnlf3.default").path, folder + "/2pvjnlf3.default")
        XCTAssertEqual(try locator.locate(.firefox, profile: "DEFAULT-ESR").path, folder + "/m4bxbel5.default-esr")
        XCTAssertThrowsError(try locator.locate(.firefox, profile: "work")) { error in
            XCTAssertEqual(error as? ProfileError, .profileNotFound(name: "work", folder: folder, available: ["default-esr (m4bxbel5.default-esr)", "default (2pvjnlf3.default)"]))
        }
        // The same through Firefox's folder as a path.
        XCTAssertEqual(try locator.locate(.path(folder)).path, folder + "/m4bxbel5.default-esr")
        XCTAssertEqual(try locator.locate(.path(folder), profile: "default").path, folder + "/2pvjnlf3.default")
    }

    func testSeveralInstallationsAreToldApartByTheOneOnThisMachine() throws {
        let temporary = TemporaryFolder("rizq-firefox")
        let folder = temporary.path
        let ini = twoProfiles + """
            [Install4F96D1932A9F858E]
            Default=2pvjnlf3.default
            Locked=1

            [Install3B6073811A6ABF12]
            Default=m4bxbel5.default-esr
            Locked=1

            """
        try makeFirefox(folder, ini, profiles: ["2pvjnlf3.default", "m4bxbel5.default-esr"])
        let list = try FirefoxProfiles(folder: folder)
        XCTAssertEqual(list.installDefaults, ["4F96D1932A9F858E": folder + "/2pvjnlf3.default", "3B6073811A6ABF12": folder + "/m4bxbel5.default-esr"])
        XCTAssertEqual(try list.choose(nil, installHashes: [FirefoxInstallHash.of(installFolder: "/usr/lib/firefox-esr")]).folderName, "m4bxbel5.default-esr")
        XCTAssertEqual(try list.choose(nil, installHashes: [FirefoxInstallHash.of(installFolder: "/usr/lib/firefox")]).folderName, "2pvjnlf3.default")
        XCTAssertThrowsError(try list.choose(nil, installHashes: [])) { error in
            XCTAssertEqual(error as? ProfileError, .profileRequired(folder: folder, available: ["default-esr (m4bxbel5.default-esr)", "default (2pvjnlf3.default)"]))
            XCTAssertTrue("\(error)".contains("choose one with --profile"))
        }
        // Where installations have no profiles of their own (Snap), Default=1 decides.
        XCTAssertEqual(try list.choose(nil, installHashes: [], dedicated: false).folderName, "2pvjnlf3.default")
        // This machine's firefox-esr (scripts/install-deps installs it) picks its own.
        if FileManager.default.fileExists(atPath: "/usr/lib/firefox-esr/application.ini"), !FileManager.default.fileExists(atPath: "/usr/lib/firefox/application.ini") {
            XCTAssertEqual(try ProfileLocator(home: "/nonexistent", environment: ["PATH": "/usr/bin"]).locate(.path(folder)).path, folder + "/m4bxbel5.default-esr")
        }
    }

    func testOlderProfilesINIAndInstallsINI() throws {
        let temporary = TemporaryFolder("rizq-firefox")
        let folder = temporary.path
        // No [General] Version: Firefox takes the installations from installs.ini.
        let old = """
            [General]
            StartWithLastProfile=1

            [Profile0]
            Name=work
            IsRelative=1
            Path=aaaa.work

            [Profile1]
            Name=home
            IsRelative=0
            Path=\(folder)/elsewhere/bbbb.home
            Default=1

            """
        try makeFirefox(folder, old, profiles: ["aaaa.work", "elsewhere/bbbb.home"])
        XCTAssertEqual(try FirefoxProfiles(folder: folder).choose(nil, installHashes: []).path, folder + "/elsewhere/bbbb.home", "Default=1 without installations")
        try "[3B6073811A6ABF12]\nDefault=aaaa.work\nLocked=1\n".write(toFile: folder + "/installs.ini", atomically: true, encoding: .utf8)
        let list = try FirefoxProfiles(folder: folder)
        XCTAssertEqual(list.installDefaults, ["3B6073811A6ABF12": folder + "/aaaa.work"])
        XCTAssertEqual(try list.choose(nil, installHashes: []).name, "work")
        // With a Version, installs.ini is Firefox's backup only.
        try (old.replacingOccurrences(of: "StartWithLastProfile=1", with: "StartWithLastProfile=1\nVersion=2")).write(toFile: folder + "/profiles.ini", atomically: true, encoding: .utf8)
        XCTAssertEqual(try FirefoxProfiles(folder: folder).choose(nil, installHashes: []).name, "home")
        // One profile, no default mark: that one. Firefox stops at the first ProfileN without IsRelative.
        try "[Profile0]\nName=only\nIsRelative=1\nPath=aaaa.work\n\n[Profile2]\nName=ignored\nIsRelative=1\nPath=x\n".write(toFile: folder + "/profiles.ini", atomically: true, encoding: .utf8)
        XCTAssertEqual(try FirefoxProfiles(folder: folder).profiles.map(\.name), ["only"])
        XCTAssertEqual(try FirefoxProfiles(folder: folder).choose(nil, installHashes: []).name, "only")
    }

    func testWhereFirefoxKeepsItsProfiles() throws {
        let home = TemporaryFolder("rizq-home")
        let locator = ProfileLocator(home: home.path, environment: ["HOME": home.path])
        XCTAssertThrowsError(try locator.locate(.firefox)) { error in
            XCTAssertEqual(error as? ProfileError, .browserNotFound(name: "Firefox", looked: [
                home.path + "/.config/mozilla/firefox", home.path + "/.mozilla/firefox", home.path + "/snap/firefox/common/.mozilla/firefox",
                home.path + "/.var/app/org.mozilla.firefox/.mozilla/firefox", home.path + "/.var/app/org.mozilla.firefox/config/mozilla/firefox",
            ]))
        }
        let single = "[Profile0]\nName=default-release\nIsRelative=1\nPath=abcd.default-release\nDefault=1\n"
        // The Snap package.
        try makeFirefox(home.path + "/snap/firefox/common/.mozilla/firefox", single, profiles: ["abcd.default-release"])
        XCTAssertEqual(try locator.locate(.firefox).path, home.path + "/snap/firefox/common/.mozilla/firefox/abcd.default-release")
        // $XDG_CONFIG_HOME, where a new user's Firefox starts.
        let xdg = home.folder("xdg")
        try makeFirefox(xdg + "/mozilla/firefox", single, profiles: ["abcd.default-release"])
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: ["XDG_CONFIG_HOME": xdg]).locate(.firefox).path, xdg + "/mozilla/firefox/abcd.default-release")
        // ~/.mozilla, which Firefox keeps using once it exists.
        try makeFirefox(home.path + "/.mozilla/firefox", single, profiles: ["abcd.default-release"])
        XCTAssertEqual(try ProfileLocator(home: home.path, environment: ["XDG_CONFIG_HOME": xdg]).locate(.firefox).path, home.path + "/.mozilla/firefox/abcd.default-release")
        // A listed profile whose folder is gone.
        try FileManager.default.removeItem(atPath: home.path + "/.mozilla/firefox/abcd.default-release")
        XCTAssertThrowsError(try locator.locate(.firefox)) { error in
            guard case ProfileError.notAProfile(let path, let reason)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, home.path + "/.mozilla/firefox/abcd.default-release")
            XCTAssertTrue(reason.contains("profiles.ini lists this profile folder, but it does not exist"), reason)
        }
    }

    func testINIFile() {
        let ini = INIFile("; comment\n[A]\n key = value with spaces \n# another\r\nempty=\n[B]\nx=1\n[A]\nkey=later\nbroken line\n")
        XCTAssertEqual(ini.sectionNames, ["A", "B"])
        XCTAssertEqual(ini[section: "A", key: "key"], "later")
        XCTAssertEqual(ini[section: "A", key: "empty"], "")
        XCTAssertEqual(ini[section: "B", key: "x"], "1")
        XCTAssertNil(ini[section: "C", key: "x"])
    }
}
