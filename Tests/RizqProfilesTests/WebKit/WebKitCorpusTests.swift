import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// The legacy Chrome / old Electron / WebKit `*.localstorage` files of the shared corpus
/// (section E). Expected key counts and digests were established independently with Python's
/// sqlite3 module, decoding the raw UTF-16LE by hand (Tests/Oracles/chromium_localstorage.py). The corpus renamed the files
/// `<source>__<name>`; each test copies its file back to the name the browser gave it, since
/// that name is where the origin comes from.
final class WebKitCorpusTests: XCTestCase {
    private func read(_ corpusName: String, as browserName: String) throws -> (ProfileStorage, TemporaryFolder) {
        let source = try requireCorpus() + "/chrome-legacy-sqlite/" + corpusName
        let folder = TemporaryFolder()
        let path = try folder.copy(source, to: "Local Storage/" + browserName)
        let storage = try readStorage(path)
        XCTAssertEqual(storage.kind, .webkitSQLite)
        XCTAssertEqual(storage.origins.count, 1)
        return (storage, folder)
    }

    private func assertOrigin(_ storage: ProfileStorage, _ origin: String, count: Int, digest: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let only = try XCTUnwrap(storage.origins.first, file: file, line: line)
        XCTAssertEqual(only.origin, origin, file: file, line: line)
        XCTAssertEqual(only.keyCount, count, file: file, line: line)
        XCTAssertEqual(originDigest(only.textItems()), digest, "\(origin): keys or values differ", file: file, line: line)
        XCTAssertTrue(only.items.allSatisfy { $0.value.encoding == .utf16LE }, "values are raw UTF-16LE", file: file, line: line)
    }

    func testYouTubeDoubleEncodedValues() throws {
        let (storage, _) = try read("old_googlechrome__http_www.youtube.com_0.localstorage", as: "http_www.youtube.com_0.localstorage")
        try assertOrigin(storage, "http://www.youtube.com", count: 3, digest: "4b42cfebc7930fc994ff069454e204ad803513b81d8fb09a2b55a110eb1db2f9")
        let youtube = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(youtube["context-FfZOUVD46TI"]?.utf16.count, 3718)
        // {"data": "<JSON in a string>", "expiration", "creation"} survives as text, byte for byte.
        let volume = try XCTUnwrap(youtube["yt-player-volume"])
        XCTAssertTrue(volume.hasPrefix(#"{"data":"{\"#), "the inner JSON stays a string")
    }

    func testLiveComJSONStringLiteralsAndAtSignsInKeys() throws {
        let (storage, _) = try read("old_googlechrome__https_secure.shared.live.com_0.localstorage", as: "https_secure.shared.live.com_0.localstorage")
        try assertOrigin(storage, "https://secure.shared.live.com", count: 4, digest: "34bc85384c0eb3a8803be410f5befb15890e93e4039f95b21962b635f3d46712")
        let live = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(live["VER@Messenger2.StatusGroup"], #""5.0.0.0""#)
    }

    func testLightTableMeteorLoginTokenOnAPort() throws {
        let (storage, _) = try read("lighttable__http_localhost_5432.localstorage", as: "http_localhost_5432.localstorage")
        try assertOrigin(storage, "http://localhost:5432", count: 3, digest: "2a1bd5a4400c3d2edfc178d66bc13679369ee062cd3fc387bb4a33d6d20e2b98")
        let meteor = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(meteor["Meteor.loginToken"].map(shortDigest), "f65acc4f5b07ba07")
        XCTAssertEqual(meteor["Meteor.loginTokenExpires"]?.utf16.count, 39)
        try requireSecretService()
        try assertImports(storage, origin: "http://localhost:5432", label: "lighttable")
        // The login token is a credential: Meteor is a known auth library.
        let report = try Importer(options: .init(dryRun: true, appID: "com.rizq.tests", root: TemporaryFolder().path), secretStore: { InMemorySecretStore(service: $0) })
            .run(try storage.dump(origin: nil))
        XCTAssertEqual(report.items.first { $0.sourceKey == "Meteor.loginToken" }?.action, .secret)
    }

    func testLightTableFileOriginWindowGeometry() throws {
        let (storage, _) = try read("lighttable__file__0.localstorage", as: "file__0.localstorage")
        try assertOrigin(storage, "file://", count: 8, digest: "8e0cb061577d1d9e857140787bfef3692330cbf13d3c22d98314aa6e9757c183")
        let window = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(window["fullscreen"], "false")
        XCTAssertEqual(window["fetchedVersion"], "null")
        // Typed on import: numbers become ints, "false" a bool.
        let report = try Importer(options: .init(dryRun: true, appID: "com.rizq.tests", root: TemporaryFolder().path), secretStore: { InMemorySecretStore(service: $0) })
            .run(try storage.dump(origin: "file://"))
        XCTAssertEqual(report.items.first { $0.sourceKey == "width" }?.type, "int")
        XCTAssertEqual(report.items.first { $0.sourceKey == "fullscreen" }?.value, .bool(false))
    }

    func testVSCode2016ElectronPreferences() throws {
        let (storage, _) = try read("vscode2016__file__0.localstorage", as: "file__0.localstorage")
        try assertOrigin(storage, "file://", count: 416, digest: "049e38fafbed498057beb5fe2970f1b87f977b74ab869ce52c7b98b8fa105c1a")
        let code = try XCTUnwrap(storage.origins.first)
        XCTAssertTrue(code.items.allSatisfy { $0.key.text?.hasPrefix("storage://") == true })
    }

    /// Every corpus file imports, dry run and real.
    func testEveryCorpusFileImportsDryRunAndReal() throws {
        try requireSecretService()
        let files = [
            ("old_googlechrome__http_www.youtube.com_0.localstorage", "http_www.youtube.com_0.localstorage"),
            ("old_googlechrome__https_secure.shared.live.com_0.localstorage", "https_secure.shared.live.com_0.localstorage"),
            ("lighttable__file__0.localstorage", "file__0.localstorage"),
            ("vscode2016__file__0.localstorage", "file__0.localstorage"),
        ]
        for (corpusName, browserName) in files {
            let (storage, _) = try read(corpusName, as: browserName)
            try assertImports(storage, origin: storage.origins[0].origin, label: corpusName)
        }
    }

    /// A profile's `Local Storage` folder of several files: one origin per file.
    func testALegacyLocalStorageFolderHoldsOneOriginPerFile() throws {
        let corpus = try requireCorpus() + "/chrome-legacy-sqlite/"
        let profile = TemporaryFolder()
        _ = try profile.copy(corpus + "lighttable__file__0.localstorage", to: "Default/Local Storage/file__0.localstorage")
        _ = try profile.copy(corpus + "lighttable__http_localhost_5432.localstorage", to: "Default/Local Storage/http_localhost_5432.localstorage")
        let storage = try readStorage(profile.path + "/Default")
        XCTAssertEqual(storage.kind, .webkitSQLite)
        XCTAssertEqual(storage.origins.map(\.origin), ["file://", "http://localhost:5432"])
        XCTAssertThrowsError(try storage.dump(origin: nil)) { error in
            XCTAssertEqual(error as? ProfileError, .originRequired(source: profile.path + "/Default/Local Storage", origins: ["file://", "http://localhost:5432"]))
        }
        XCTAssertEqual(try storage.dump(origin: "http://localhost:5432").entries.count, 3)
    }
}
