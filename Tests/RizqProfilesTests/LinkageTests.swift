import Foundation
import XCTest

/// The profile readers are a product of their own: an app that does not import profiles does
/// not link LevelDB, SQLite or snappy. Checked on the built executables' dynamic section
/// (`readelf -d`, binutils, which the Swift toolchain needs): `rizq-prefs` uses RizqProfiles and
/// links all three; the test children built on `RizqPrefs` or `RizqSecrets` alone link none.
final class LinkageTests: XCTestCase {
    /// The shared libraries `executable` names as NEEDED.
    private func neededLibraries(_ executable: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let readelf = "/usr/bin/readelf"
        guard FileManager.default.isExecutableFile(atPath: readelf) else {
            XCTFail("\(readelf) is missing (binutils, which swift's linker needs)", file: file, line: line)
            return []
        }
        let result = try runCommand(readelf, ["-d", "-W", executable])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.stdout.split(separator: "\n").compactMap { row in
            guard row.contains("(NEEDED)"), let open = row.firstIndex(of: "["), let close = row.lastIndex(of: "]") else { return nil }
            return String(row[row.index(after: open)..<close])
        }
    }

    private let readerLibraries = ["libleveldb", "libsqlite3", "libsnappy"]

    private func readerLibraries(in libraries: [String]) -> [String] {
        readerLibraries.filter { name in libraries.contains { $0.hasPrefix(name + ".so") } }
    }

    func testOnlyWhatImportsProfilesLinksLevelDBAndSQLite() throws {
        let tool = try neededLibraries(builtProduct("rizq-prefs"))
        XCTAssertEqual(readerLibraries(in: tool), readerLibraries, "rizq-prefs reads profiles: \(tool)")
        for product in ["rizq-prefs-test-child", "rizq-secrets-test-child"] {
            let libraries = try neededLibraries(builtProduct(product))
            XCTAssertFalse(libraries.isEmpty, product)
            XCTAssertEqual(readerLibraries(in: libraries), [], "\(product) imports no profile: \(libraries)")
        }
        XCTAssertTrue(try neededLibraries(builtProduct("rizq-secrets-test-child")).contains { $0.hasPrefix("libsecret-1.so") }, "the check reads NEEDED entries")
    }
}
