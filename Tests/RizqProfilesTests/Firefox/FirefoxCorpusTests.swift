import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// The Firefox profiles of the shared corpus: LSNG origin folders (section B) and legacy
/// `webappsstore.sqlite` files (section C). The expected origins, key counts and digests were
/// established independently by Tests/Oracles/firefox_localstorage.py (Python's sqlite3 and a
/// raw-snappy decoder written for the check, Firefox's own origin-key rules for
/// `webappsstore.sqlite`). Secret values are compared by digest only.
final class FirefoxCorpusTests: XCTestCase {
    private func lsng(_ relative: String) throws -> String {
        try requireCorpus() + "/firefox-lsng/" + relative
    }

    /// Reads one corpus origin folder in place, checks its origin, count and digest, and that
    /// reading changed nothing.
    @discardableResult
    private func assertOrigin(_ relative: String, origin: String, count: Int, digest: String, file: StaticString = #filePath, line: UInt = #line) throws -> StoredOrigin {
        let folder = try lsng(relative)
        let before = fingerprint(folder)
        let storage = try readStorage(folder)
        XCTAssertEqual(storage.kind, .firefoxLSNG, file: file, line: line)
        XCTAssertEqual(storage.location.path, folder + "/ls/data.sqlite", file: file, line: line)
        XCTAssertEqual(storage.origins.map(\.origin), [origin], file: file, line: line)
        let only = try XCTUnwrap(storage.origins.first, file: file, line: line)
        XCTAssertEqual(only.keyCount, count, file: file, line: line)
        XCTAssertEqual(originDigest(only.textItems(file: file, line: line)), digest, "\(origin): keys or values differ", file: file, line: line)
        XCTAssertEqual(fingerprint(folder), before, "reading changed the corpus", file: file, line: line)
        return only
    }

    // MARK: Section B: LSNG

    func testPortainerOnLocalhost9000() throws {
        let portainer = try assertOrigin(
            "gitmarsh/http+++localhost+9000", origin: "http://localhost:9000", count: 18,
            digest: "8d9d21fce4197bc7780366fd6d451425fffc327f9d2f8827422b2bdf88743b85")
        // A JSON-encoded string holding a JWT, stored uncompressed.
        let jwt = try XCTUnwrap(portainer["portainer.JWT"])
        XCTAssertEqual(shortDigest(jwt), "872b215247c03659")
        XCTAssertTrue(jwt.hasPrefix("\"eyJ") && jwt.hasSuffix("\""))
        // Snappy-compressed values (compression_type 1) read back whole.
        XCTAssertEqual(portainer["portainer.ENDPOINTS_DATA"]?.utf16.count, 796)
        XCTAssertEqual(portainer["portainer.APPLICATION_STATE"]?.utf16.count, 568)
        XCTAssertEqual(portainer["portainer.ENDPOINT_ID"], "1")
        XCTAssertEqual(portainer["portainer.ENDPOINT_OFFLINE_MODE"], "false")
        XCTAssertEqual(portainer.warnings, [])
    }

    func testNginxProxyManagerOnAnExplicitPort() throws {
        let npm = try assertOrigin(
            "gitmarsh/http+++cloudmarsh.com+81", origin: "http://cloudmarsh.com:81", count: 1,
            digest: "12ca5cad0df61346878423f3868367e218d8eaea8f74333cd509fa39f4ee5f05")
        let tokens = try XCTUnwrap(npm["nginx-proxy-manager-tokens"])
        XCTAssertEqual(tokens.utf16.count, 556)
        XCTAssertEqual(shortDigest(tokens), "d0bf622bfa5145a6")
        XCTAssertTrue(tokens.hasPrefix("[{"), "a JSON array, decompressed whole")
    }

    func testJellyfinOnMediaLo() throws {
        let jellyfin = try assertOrigin(
            "gitmarsh/http+++media.lo", origin: "http://media.lo", count: 5,
            digest: "df2d39b91f29a1810ad56ef7e13bf2f0339d37a90e3bfff9c64ad1b30092dff4")
        XCTAssertEqual(jellyfin["enableAutoLogin"], "true")
        XCTAssertEqual(jellyfin["jellyfin_credentials"]?.utf16.count, 225)
        XCTAssertEqual(jellyfin["_deviceId2"]?.utf16.count, 112)
    }

    func testTrueNASSyncthingConflictCopiesAreNotRead() throws {
        let truenas = try assertOrigin(
            "gitmarsh/http+++truenas.lo", origin: "http://truenas.lo", count: 8,
            digest: "16c1cba53900034b61d0d2b68a62260579a3ff2137c7d23744c6e78a0e0cfa7f")
        // The conflict copy holds another token (66 characters); the real database "null".
        XCTAssertEqual(truenas["ngx-webstorage|token"], "null")
        XCTAssertEqual(truenas["buildtime"].map(shortDigest), "a9153ea66342a1a5")

        // In a profile, the conflict copy of the database is named and not read, and the conflict
        // copy of .metadata-v2 makes no origin.
        let profile = TemporaryFolder("rizq-firefox")
        _ = try profile.copy(try lsng("gitmarsh/http+++truenas.lo"), to: "storage/default/http+++truenas.lo")
        let storage = try readStorage(profile.path)
        XCTAssertEqual(storage.kind, .firefoxProfile)
        XCTAssertEqual(storage.origins.map(\.origin), ["http://truenas.lo"])
        XCTAssertEqual(storage.origins.first?.keyCount, 8)
        XCTAssertEqual(storage.origins.first?.warnings, [
            "ls/data.sync-conflict-20220604-113252-6ZIAFW5.sqlite is a Syncthing conflict copy, not Firefox's database; it was not read",
        ])
        // A conflict copy of a whole origin folder is no origin either.
        _ = try profile.copy(try lsng("gitmarsh/http+++truenas.lo"), to: "storage/default/http+++truenas.sync-conflict-20220604-113252-6ZIAFW5.lo")
        XCTAssertEqual(try readStorage(profile.path).origins.map(\.origin), ["http://truenas.lo"])
    }

    func testKeycloakCallbacksOnRedHat() throws {
        let redhat = try assertOrigin(
            "gitmarsh/https+++access.redhat.com", origin: "https://access.redhat.com", count: 7,
            digest: "b3b42fa7d13ec2e851a53918b03ab47a3cf8127ad6ea871c11a12fe6cb5f8434")
        XCTAssertEqual(redhat.items.filter { $0.key.text?.hasPrefix("kc-callback-") == true }.count, 3)
        XCTAssertEqual(redhat["kc-callback-56a37ed8-6495-4e20-bf2c-2ae0ccdcbf9b"]?.utf16.count, 396)
        XCTAssertEqual(redhat["com.adobe.reactor.dataElementCookiesMigrated"], "true")
    }

    func testPartitionedGoogleOriginKeepsItsPartitionKey() throws {
        let partitioned = "https://accounts.google.com^partitionKey=%28https%2Cspokeo.com%29"
        let google = try assertOrigin(
            "gitmarsh/https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29", origin: partitioned, count: 1,
            digest: "834a99fc4cf4d39a58903a97adc3734bc7410ed2760127d2cc519b0b743cfa72")
        XCTAssertEqual(google["oauth2_ss::https://www.spokeo.com::1::DEFAULT::_ss_"]?.utf16.count, 142)

        // Beside the same site unpartitioned, the two stay two origins, never merged.
        let profile = TemporaryFolder("rizq-firefox")
        _ = try profile.copy(try lsng("gitmarsh/https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29"), to: "storage/default/https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29")
        try FirefoxFixture.makeLSNG(profile.path + "/storage/default/https+++accounts.google.com", origin: "https://accounts.google.com", rows: [.text("theme", "dark")])
        let storage = try readStorage(profile.path)
        XCTAssertEqual(storage.origins.map(\.origin), ["https://accounts.google.com", partitioned])
        XCTAssertEqual(try storage.dump(origin: "https://accounts.google.com").entries.map(\.key), ["theme"])
        XCTAssertEqual(try storage.dump(origin: partitioned).entries.map(\.key), ["oauth2_ss::https://www.spokeo.com::1::DEFAULT::_ss_"])
        XCTAssertThrowsError(try storage.dump(origin: nil)) { error in
            XCTAssertEqual(error as? ProfileError, .originRequired(source: profile.path, origins: ["https://accounts.google.com", partitioned]))
        }
    }

    func testClickUpMixedCompressionAndTokens() throws {
        let clickup = try assertOrigin(
            "sharky/https+++app.clickup.com", origin: "https://app.clickup.com", count: 49,
            digest: "9d5ab656810581bf2bbe2d17d2395f87304bb4c6ae86d793d808bd7401aabf50")
        XCTAssertEqual(clickup["id_token"].map(shortDigest), "30e1922dae8c60fa")
        XCTAssertEqual(clickup["refresh_token"].map(shortDigest), "548384cd70f466a3")
        XCTAssertEqual(clickup["refresh_token"]?.utf16.count, 267)
        // The one empty value, stored as TEXT '' in the BLOB column.
        XCTAssertEqual(clickup["redirectUrlAfterLogin"], "")
        XCTAssertEqual(clickup["persisted-queue:v1:plViNAfpbYhPPnw0NQgcdYWMJU0zLMqz:dest-Segment.io:items"]?.utf16.count, 5248)
        XCTAssertEqual(clickup["dark-theme"], "false")
        // Both tokens go to the Secret Service on import.
        let report = try Importer(options: .init(dryRun: true, appID: "com.rizq.tests", root: TemporaryFolder().path), secretStore: { InMemorySecretStore(service: $0) })
            .run(try readStorage(try lsng("sharky/https+++app.clickup.com")).dump(origin: nil))
        XCTAssertEqual(report.items.first { $0.sourceKey == "id_token" }?.action, .secret)
        XCTAssertEqual(report.items.first { $0.sourceKey == "refresh_token" }?.action, .secret)
    }

    func testVimAdventuresEmptyValuesStoredAsText() throws {
        let vim = try assertOrigin(
            "sharky/https+++vim-adventures.com", origin: "https://vim-adventures.com", count: 5,
            digest: "4dd21853398ee36f284881abc6ce00de90d58c1bd227656d2c00adc437b04e80")
        XCTAssertEqual(vim.items.map { $0.value.text }, ["", "", "", "", ""])
        XCTAssertTrue(vim.items.allSatisfy { $0.value.encoding == .utf8 && $0.value.bytes.isEmpty })
        XCTAssertEqual(vim["VIM Adventures password"], "")
    }

    func testWebExtensionOrigin() throws {
        let extensionOrigin = try assertOrigin(
            "sharky/moz-extension+++7c610d1e-7d02-4e6c-b421-58a75926f6e4", origin: "moz-extension://7c610d1e-7d02-4e6c-b421-58a75926f6e4", count: 1,
            digest: "7b1f0b4e3437d8cb3e5e6f77cb2c8b0a3e844d3b0690aa241ac748ce53c3a882")
        XCTAssertEqual(extensionOrigin["START_TIME"]?.utf16.count, 13)
        XCTAssertNotNil(Int(extensionOrigin["START_TIME"] ?? ""), "an epoch in milliseconds")
    }

    /// All of section B as one profile: nine origins, each its own.
    func testTheLSNGOriginsAsOneProfile() throws {
        let profile = TemporaryFolder("rizq-firefox")
        for source in ["gitmarsh", "sharky"] {
            let folder = try lsng(source)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                _ = try profile.copy(folder + "/" + name, to: "storage/default/" + name)
            }
        }
        _ = FileManager.default.createFile(atPath: profile.path + "/prefs.js", contents: Data())
        let storage = try readStorage(profile.path)
        XCTAssertEqual(storage.kind, .firefoxProfile)
        XCTAssertEqual(storage.origins.map(\.origin), [
            "http://cloudmarsh.com:81", "http://localhost:9000", "http://media.lo", "http://truenas.lo", "https://access.redhat.com",
            "https://accounts.google.com^partitionKey=%28https%2Cspokeo.com%29", "https://app.clickup.com", "https://vim-adventures.com",
            "moz-extension://7c610d1e-7d02-4e6c-b421-58a75926f6e4",
        ])
        XCTAssertEqual(storage.origins.map(\.keyCount), [1, 18, 5, 8, 7, 1, 49, 5, 1])
        // The same, named by the storage folder and by storage/default.
        XCTAssertEqual(try readStorage(profile.path + "/storage").origins.map(\.keyCount), [1, 18, 5, 8, 7, 1, 49, 5, 1])
        XCTAssertEqual(try readStorage(profile.path + "/storage/default").origins.map(\.keyCount), [1, 18, 5, 8, 7, 1, 49, 5, 1])
    }

    /// Every corpus origin imports, dry run and real (secrets to the real Secret Service only).
    func testEveryCorpusProfileImportsDryRunAndReal() throws {
        try requireSecretService()
        let corpus = try requireCorpus()
        for source in ["gitmarsh", "sharky"] {
            let folder = corpus + "/firefox-lsng/" + source
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
                let storage = try readStorage(folder + "/" + name)
                try assertImports(storage, origin: try XCTUnwrap(storage.origins.first).origin, label: name)
            }
        }
        for name in ["mstefk-webappsstore-v2-158rows.sqlite", "yoshirulz-webappsstore-v2-fxa.sqlite"] {
            let storage = try readStorage(corpus + "/firefox-webappsstore/" + name)
            for origin in storage.origins {
                try assertImports(storage, origin: origin.origin, label: name)
            }
        }
    }

    // MARK: Section C: webappsstore.sqlite

    func testMstefkWebappsstoreSchema2() throws {
        let path = try requireCorpus() + "/firefox-webappsstore/mstefk-webappsstore-v2-158rows.sqlite"
        let before = fingerprint((path as NSString).deletingLastPathComponent)
        let storage = try readStorage(path)
        XCTAssertEqual(storage.kind, .firefoxWebappsstore)
        let expected: [String: (count: Int, digest: String)] = [
            "https://archive.mpi.nl": (2, "7e199f686430104c47192f5ee4fa05215415eee7177119978963091a9131dce9"),
            "https://askubuntu.com": (1, "223cbc19552dac761a0829797741593161c23811b2502ea9b98fdd8cd1b711f1"),
            "https://boards.4chan.org": (4, "df513fbeac380b4c5aeaf80b46e29cbe845b8809097b274015d94ab3a9fa3e20"),
            "https://boards.4channel.org": (6, "43035039076b08dfd368f995d6982d9bf15b3f4c1256cdd166d6cbebc39449c3"),
            "https://en.wikipedia.org": (2, "5e653f4ce1c9f58386f0a6d50d6c86b01041dfb5ea20684f596500243fdacb12"),
            "https://fontawesome.com": (3, "db90bd11509abeccd2dcb8c61187c093ac6ec04195cb8d3de086278780fa52dc"),
            "https://forum.manjaro.org": (5, "88db5fd86d41e260b7a520c74bf45089e911797102bc1e304c1a7b2e6187c81b"),
            "https://gist.github.com": (1, "52a24968caeac507780b229f34d6bbf337de08fa14032277d46f9ce84d9af216"),
            "https://github.com": (10, "35e1fefb4e9945a9a2019230544662044b5304fbbb6f4d09683509a686f3bd08"),
            "https://gologin.com": (1, "5f0bcb0a0633582ee40aede61fa684536a74ecbe9bb49826a97c0403cd1a96f5"),
            "https://hdqwalls.com": (1, "201e313ede5ecc11c2aef2cc5f9f3c1afb377b9ad1b764e2e1c4b147f343a21f"),
            "https://linuxhint.com": (10, "7f105a38766c93738a8e30238ab48aabfd9ba5e565b7b4ac0180a9abce6d4bae"),
            "https://medium.com": (23, "5979b86e519352ab1de79b557d4fd5589b62d9e81b497450beaf925b72b1b600"),
            "https://musicbee.fandom.com": (5, "8f8a53e0e3b8289499b2d63ec614f8c1024850db66222147e5dd0c9f67ca741e"),
            "https://olympics.com": (7, "d82cb9e8933b1b09c0868cd6f0d5a13f3b2e0a3f4899f4858c988b723da55808"),
            "https://olympics.kiswe.com": (1, "98b80341b375023b69a7c3acf04a9b231e77891b4e4cd2ad2a6a20b7a542db46"),
            "https://onlinetexttools.com": (4, "07b46fc4bb5b9d3a6b9b1bdf86b388b81f2b899228afb8227310166a8c26db0e"),
            "https://open.spotify.com": (1, "96fa1e7700396b0eb27e25723fb2da725289d509c3b940670c39d884611ebe42"),
            "https://opensource.com": (6, "95af53343214b6ba7e9d0b3459a64827e68f5c0ea609cecb251e6a516326113c"),
            "https://serverfault.com": (1, "4ef12a67b10ef1e320e63e0622dda46577e5a44d1a691b0f7a20e13cf1812922"),
            "https://sl.wikipedia.org": (3, "051e6b7ec7dbefabc17f7633562366be58c3af2649fcf5025db593083a09a89d"),
            "https://sr.wikipedia.org": (1, "afd7c92c9022a9b0b27cc56f7845f782868ade13998e343f84ed131ab383a876"),
            "https://stackoverflow.com": (1, "735b1f098928c94e6dd8d36e86de7730ca4610bc4daf7dceb3e94eade3af38e9"),
            "https://superuser.com": (1, "b0afaa37b86f77a859d509d69685dd3dea3b36ec038c2c6183b92dec43689bca"),
            "https://support.signal.org": (1, "296fcae03fcf65511310940231055a03d342c72e445c8c8704724ab6393918a6"),
            "https://totallynoob.com": (1, "cc5e99abe4af9a16bae30d9e514622a8e271bd6edf3b4226c01165dd98d944a0"),
            "https://unix.stackexchange.com": (1, "f2f98c9911f9ccd1b57ef1b893489c0f8b884fcdf4229d942df8e7842cdcf53f"),
            "https://vi.stackexchange.com": (1, "6ca1fb5a01eeff92b28a54bda4bd7c6b27863479c5613f409d52007f2b041416"),
            "https://www.amiunique.org": (3, "44503c0dda8f099bba30739fcc6b0328d97a2743d0d799334143f7e4ad8f4457"),
            "https://www.fandom.com": (1, "a4f25c1df4303984040c8cb85ec05b11110943234d3a7d837b833c73f3b982a2"),
            "https://www.flashscore.com": (11, "0736fc9c970e489bff4c2784ab8c9ca4465431d4deb94b1475b4acb6a27acb72"),
            "https://www.freecodecamp.org": (1, "88c0967dcc434f95c2ccb96c319049e9d9a99db38246856cbcf297ca37744a02"),
            "https://www.google.com": (6, "c7752acf471820d56daff2711b24d03e1277445484948241446ee0804a08f356"),
            "https://www.hackerearth.com": (4, "de90546ddd774b58e4bb88333c341404631589780e41fcc2e546f758dbb21690"),
            "https://www.latimes.com": (2, "a023356573397e0b0c3c1a4d30a7f49c7ba45034b2226ca23f7140568d4f0bed"),
            "https://www.reddit.com": (11, "03b15405f5aacc21c39ae0a0a41a4ccdf7f41c03c7e04d5f410d752614f52d71"),
            "https://www.ssh.com": (1, "72392c31d91e79346098916ce685e03f68f50d03d06a1a3142986b7ea58c84db"),
            "https://www.youtube.com": (14, "79e2ab07991756eca0f03781cd7fbe56b81477eea489aee31061f02acca3b80c"),
        ]
        XCTAssertEqual(storage.origins.map(\.origin), expected.keys.sorted())
        for origin in storage.origins {
            XCTAssertEqual(origin.keyCount, expected[origin.origin]?.count, origin.origin)
            XCTAssertEqual(originDigest(origin.textItems()), expected[origin.origin]?.digest, "\(origin.origin): keys or values differ")
        }
        let items = storage.origins.flatMap(\.items)
        XCTAssertEqual(items.count, 158)
        XCTAssertEqual(items.filter { $0.value.text == "" }.count, 7)
        let reddit = try XCTUnwrap(storage.origins.first { $0.origin == "https://www.reddit.com" })
        XCTAssertEqual(reddit["reddit_local_storage_feature_test"], "yes")
        XCTAssertEqual(reddit["last-clicked-ad-id"], "")
        let google = try XCTUnwrap(storage.origins.first { $0.origin == "https://www.google.com" })
        XCTAssertEqual(google["KITSUNE_DEVICE"], #""desktop""#)
        let amiunique = try XCTUnwrap(storage.origins.first { $0.origin == "https://www.amiunique.org" })
        XCTAssertEqual(amiunique["currentFp"]?.utf16.count, 164_804, "the 164 KB value whole")
        XCTAssertEqual(fingerprint((path as NSString).deletingLastPathComponent), before, "reading changed the corpus")
    }

    func testYoshiRulzFirefoxAccountsDoubleEncoded() throws {
        let storage = try readStorage(try requireCorpus() + "/firefox-webappsstore/yoshirulz-webappsstore-v2-fxa.sqlite")
        XCTAssertEqual(storage.kind, .firefoxWebappsstore)
        XCTAssertEqual(storage.origins.map(\.origin), ["https://accounts.firefox.com"])
        let accounts = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(originDigest(accounts.textItems()), "8dd5eda6039806dbd44b80b56c5d81fda40e7cde6b589f1c6ab33f37757bde72")
        XCTAssertEqual(accounts["__fxa_storage.experiment.q3FormChanges"], #""{\"enrolled\":true}""#)
        XCTAssertEqual(accounts["_st"], "1")
        XCTAssertEqual(accounts["__fxa_storage.uniqueUserId"]?.utf16.count, 38)
        // The dump format the importer records.
        XCTAssertEqual(try storage.dump(origin: nil).format, .firefoxWebappsstore)
    }

    func testBeubiSchema0WithNoRows() throws {
        let path = try requireCorpus() + "/firefox-webappsstore/beubi-webappsstore-schema0-empty.sqlite"
        let storage = try readStorage(path)
        XCTAssertEqual(storage.kind, .firefoxWebappsstore, "schema 0 is recognised by its table")
        XCTAssertEqual(storage.origins, [])
        XCTAssertThrowsError(try storage.dump(origin: nil)) { error in
            XCTAssertEqual(error as? ProfileError, .noLocalStorage(source: path))
        }
    }
}
