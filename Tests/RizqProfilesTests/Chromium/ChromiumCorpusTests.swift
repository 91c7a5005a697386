import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// The Chromium / Electron `Local Storage/leveldb` folders of the shared corpus (section D),
/// read with the real LevelDB library. The expected origins, key counts and digests were
/// established independently by Tests/Oracles/chromium_localstorage.py: a hand-written Python
/// reader of LevelDB's log and table files (snappy through ctypes), applying sequence numbers
/// (newest wins) and deletions, and decoding the format bytes. Values are compared by digest,
/// never printed.
final class ChromiumCorpusTests: XCTestCase {
    private func read(_ name: String) throws -> ProfileStorage {
        let folder = try requireCorpus() + "/chromium-leveldb/" + name
        let storage = try readStorage(folder)
        XCTAssertEqual(storage.kind, .chromiumLevelDB)
        return storage
    }

    /// Origins with their key counts and digests, as the independent reader found them.
    private func assertOrigins(_ storage: ProfileStorage, _ expected: [String: (count: Int, digest: String)], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(storage.origins.map(\.origin), expected.keys.sorted(), file: file, line: line)
        for origin in storage.origins {
            guard let want = expected[origin.origin] else { continue }
            XCTAssertEqual(origin.keyCount, want.count, origin.origin, file: file, line: line)
            XCTAssertEqual(originDigest(origin.textItems()), want.digest, "\(origin.origin): keys or values differ", file: file, line: line)
            XCTAssertEqual(Set(origin.items.map(\.key)).count, origin.keyCount, "each key once", file: file, line: line)
        }
    }

    func testChromiumDefaultSettingsWithSnappyTable() throws {
        let storage = try read("chromium-default-settings-with-ldb")
        assertOrigins(storage, [
            "chrome-extension://gighmmpiobklfepjocnamgkkbiglidom": (7, "baba98cc513e3c5f8bd32ac465806e32cd83a9673a675db41e5cb9c38d28765a"),
            "chrome-extension://padekgcemlokbadohgkifijomclgjgif": (14, "a6ce4681f9842c00edf3a6e840b390976ef68d30635c4f4af3b4582e1b1a76a4"),
            "chrome://settings": (1, "1317cdd59965532371a7f76cb7c9c848725a71dbc28f57df20b81ba721c8d784"),
            "https://chrome.google.com": (1, "71acc302aa658e31432781593dddfdb48e427edb8dc482b4bb488699f08bae7c"),
            "https://www.notion.so": (18, "1f37138a05cb46acc0144393bb11a219dce639be67bb2f73138b76a3aaf19c0e"),
            "https://www.youtube.com": (3, "b078ac9fe07ff121784990690c3c4df6f516550589ada4d8e05aed84c25fa014"),
        ])
        let byName = Dictionary(uniqueKeysWithValues: storage.origins.map { ($0.origin, $0) })
        // Deletion markers: an origin whose only key was deleted is gone; deleted keys are gone.
        XCTAssertNil(byName["https://m.stripe.network"])
        let notion = try XCTUnwrap(byName["https://www.notion.so"])
        for deleted in ["test", "intercom-test", "__sak"] { XCTAssertNil(notion[deleted], deleted) }
        XCTAssertNil(byName["https://chrome.google.com"]?["__sak"])
        // Empty strings are the single byte 0x01; META:/VERSION records are not data.
        let omega = try XCTUnwrap(byName["chrome-extension://padekgcemlokbadohgkifijomclgjgif"])
        XCTAssertEqual(omega["logLastError"], "")
        XCTAssertEqual(notion["mutiny.optOut"], "")
        XCTAssertFalse(storage.origins.contains { $0.origin.hasPrefix("META") || $0.items.contains { $0.key.text == "VERSION" } })
        // A 193 KB value from the snappy-compressed table arrives whole.
        XCTAssertEqual(notion["STATSIG_LOCAL_STORAGE_INTERNAL_STORE_V4"]?.utf16.count, 192_905)
        XCTAssertTrue(storage.origins.allSatisfy { $0.items.allSatisfy { $0.key.encoding == .latin1 && $0.value.encoding == .latin1 } })
    }

    func testMetaMaskLogOnlyDatabaseKeepsTheNewestOfThreeWrites() throws {
        let storage = try read("metamask-cache-test")
        assertOrigins(storage, [
            "chrome-extension://eabbjjmhckhabkmlefjbeidehgdgkdko": (1, "96fa1e7700396b0eb27e25723fb2da725289d509c3b940670c39d884611ebe42"),
            "chrome-extension://lanklilpaopfcinfhcmipmaomongofnp": (1, "96fa1e7700396b0eb27e25723fb2da725289d509c3b940670c39d884611ebe42"),
            "https://uad.ubq.fi": (6, "8fe00da93b577e6d34fd688b027587c70b9c56357fa68acb72993fbee3fd6f2c"),
        ])
        let wallet = try XCTUnwrap(storage.origins.first { $0.origin == "https://uad.ubq.fi" })
        // wagmi.cache was written at sequence 9, 12 and 14: the last one wins.
        let cache = try XCTUnwrap(wallet["wagmi.cache"])
        XCTAssertEqual(shortDigest(cache), "89d8057d46d42328")
        XCTAssertFalse(["1d0f88572dc283da", "237e11c1fc6a2b14"].contains(shortDigest(cache)))
        XCTAssertNotNil(wallet["-walletlink:https://www.walletlink.org:session:secret"])
    }

    func testObsidianElectronAppOrigin() throws {
        let storage = try read("obsidian-electron-app-scheme")
        assertOrigins(storage, ["app://obsidian.md": (3, "0129cd70f12a92501116b6535a4d964513b54227a697bd1792190a608588f346")])
        let obsidian = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(obsidian["spellcheck-languages"], "null")
        XCTAssertEqual(obsidian["enable-plugin-06d7178b1a356376"], "true")
        // Overwritten: the second value, not the first ("[]").
        XCTAssertEqual(obsidian["06d7178b1a356376-file-explorer-unfold"], #"["00 - Maps of Content"]"#)
    }

    func testUTF16ValueAndMetaAccessRecords() throws {
        let storage = try read("test-profile-metaaccess-utf16")
        assertOrigins(storage, ["https://www.google.com": (1, "7e1f2a20c7d8a93d7cb384bbff4c62b5466f6e6ccd3a383e3407ad80b6095288")])
        let google = try XCTUnwrap(storage.origins.first)
        let item = try XCTUnwrap(google.items.first)
        XCTAssertEqual(item.key.text, "sb_wiz.zpc.gws-wiz.")
        XCTAssertEqual(item.key.encoding, .latin1)
        XCTAssertEqual(item.value.encoding, .utf16LE, "the value carries format byte 0x00")
        let value = try XCTUnwrap(item.value.text)
        XCTAssertEqual(value.utf16.count, 263)
        XCTAssertEqual(value.unicodeScalars.filter { (0x400..<0x500).contains($0.value) }.count, 53, "Cyrillic letters decoded")
        // The two deleted keys are not there.
        XCTAssertNil(google["__sak"])
        XCTAssertNil(google["udla::placeholder"])
    }

    /// Every corpus folder imports, dry run and real, into a fresh root: the suite values read
    /// back are the dump's, and secrets (the WalletLink session secret) never reach a file.
    func testEveryCorpusFolderImportsDryRunAndReal() throws {
        let corpus = try requireCorpus() + "/chromium-leveldb"
        try requireSecretService()
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() {
            let storage = try readStorage(corpus + "/" + name)
            for origin in storage.origins {
                try assertImports(storage, origin: origin.origin, label: name)
            }
        }
    }
}

extension XCTestCase {
    /// A dry run then a real import of one origin: the dry run writes nothing; the real one
    /// writes what the dry run said, secrets to the real Secret Service and never to a file.
    func assertImports(_ storage: ProfileStorage, origin: String, label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let root = TemporaryFolder("rizq-profile-import")
        let service = "org.rizq.tests.profiles.\(UUID().uuidString.prefix(8))"
        let secrets = SecretServiceStore(service: service)
        defer { for account in (try? secrets.accounts()) ?? [] { _ = try? secrets.deleteSecret(forAccount: account) } }
        let dump = try storage.dump(origin: origin)
        XCTAssertEqual(dump.origin, storage.origins.first { $0.origin == origin }?.origin, file: file, line: line)
        var options = Importer.Options(dryRun: true, secretService: service, appID: "com.rizq.tests.profiles", root: root.path)
        let dry = try Importer(options: options).run(dump)
        XCTAssertEqual(dry.status, .dryRun, file: file, line: line)
        XCTAssertEqual(fileSnapshot(under: root.path), [:], "\(label) \(origin): the dry run wrote", file: file, line: line)

        options.dryRun = false
        let report = try Importer(options: options).run(dump)
        XCTAssertEqual(report.status, .imported, file: file, line: line)
        XCTAssertEqual(report.items.map(\.action), dry.items.map(\.action), "\(label) \(origin): the import did what the dry run said", file: file, line: line)
        XCTAssertEqual(report.items.count, dump.entries.count, file: file, line: line)
        let suite = try SuiteStore(suite: "com.rizq.tests.profiles", appID: "com.rizq.tests.profiles", root: root.path)
        for (index, item) in report.items.enumerated() {
            let entry = dump.entries[index]
            switch item.action {
            case .inferred, .imported:
                XCTAssertEqual(suite.prefValue(forKey: entry.key), item.value, "\(label) \(origin), item \(index)", file: file, line: line)
            case .secret:
                guard case .secret(_, let account)? = item.destination else { continue }
                XCTAssertTrue(try secrets.secret(forAccount: account) == entry.value, "\(label) \(origin), item \(index): not in the Secret Service", file: file, line: line)
                // A value that another (non-secret) item also holds, as value or key, is in the
                // suite because of that item (e.g. a short "1", or an id stored twice).
                let elsewhere = dump.entries.enumerated().contains { other in
                    other.offset != index && report.items[other.offset].action != .secret && (other.element.value.contains(entry.value) || other.element.key.contains(entry.value))
                }
                if elsewhere { continue }
                XCTAssertEqual(filesContaining(entry.value, under: root.path), [], "\(label) \(origin), item \(index): a secret reached a file", file: file, line: line)
                XCTAssertFalse(report.text.contains(entry.value) || report.json.contains(entry.value), "\(label) \(origin), item \(index): the report shows a secret", file: file, line: line)
            case .kept, .skipped:
                break
            }
        }
    }
}
