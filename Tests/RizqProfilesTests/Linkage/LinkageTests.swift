import Foundation
import XCTest

/// What each program links, read from the built executables' dynamic section (`readelf -d`,
/// binutils, which the Swift toolchain needs) and the loader's view (`ldd`, which follows the
/// libraries' own dependencies).
///
/// - The profile readers load LevelDB, SQLite and snappy at their first use (dlopen): no
///   program links them, not even `rizq-prefs`, which reads profiles — so that a command that
///   reads no profile starts without them.
/// - libsecret is loaded at run time (dlopen), never linked: no program, not `rizq-prefs`, not a
///   preferences-only program, not even one built on RizqSecrets, has libsecret or GLib among its
///   libraries, so each starts where libsecret-1-0 is not installed.
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

    func testNoProgramLinksLevelDBSQLiteOrSnappy() throws {
        for product in ["rizq-prefs", "rizq-prefs-test-child", "rizq-secrets-test-child"] {
            let libraries = try neededLibraries(builtProduct(product))
            XCTAssertFalse(libraries.isEmpty, product)
            XCTAssertTrue(libraries.contains("libc.so.6"), "the check reads NEEDED entries: \(libraries)")
            XCTAssertEqual(readerLibraries(in: libraries), [], "\(product) links no profile library: \(libraries)")
        }
    }

    private let secretLibraries = ["libsecret-1", "libglib-2.0", "libgio-2.0", "libgobject-2.0"]

    private func secretLibraries(in libraries: [String]) -> [String] {
        libraries.filter { library in secretLibraries.contains { library.hasPrefix($0 + ".so") } }
    }

    func testNoProgramLinksLibsecretOrGLib() throws {
        for product in ["rizq-prefs", "rizq-prefs-test-child", "rizq-secrets-test-child"] {
            let needed = try neededLibraries(builtProduct(product))
            XCTAssertTrue(needed.contains("libc.so.6"), "the check reads NEEDED entries: \(needed)")
            XCTAssertEqual(secretLibraries(in: needed), [], "\(product) NEEDED: \(needed)")

            let ldd = try runCommand("/usr/bin/ldd", [builtProduct(product)])
            XCTAssertEqual(ldd.status, 0, ldd.stderr)
            let loaded = ldd.stdout.split(separator: "\n").compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
            XCTAssertTrue(loaded.contains("libc.so.6"), "the check reads ldd's list: \(ldd.stdout)")
            XCTAssertEqual(secretLibraries(in: loaded), [], "\(product) loads at start: \(ldd.stdout)")
        }
    }
}
