import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 8 (library): text that is not valid UTF-8 is refused where its bytes enter the
/// library, never rewritten to U+FFFD — which made two different names one. Keys and values
/// reach the library as Swift strings (always valid) or through its JSON reader (which refuses
/// invalid UTF-8, in a file and in an import); what it reads as names itself are the files of
/// the suites' folders.
final class InvalidUnicodeTests: XCTestCase {
    /// Two files whose names differ only in bytes that are not UTF-8 used to be listed as two
    /// suites of one name, `\u{FFFD}` — which names a third file. They are no suites; doctor
    /// names them, as shell words that reach them.
    func testFilesWhoseNamesAreNotUTF8AreNoSuitesAndDoctorNamesThem() throws {
        let root = TemporaryRoot()
        let folder = root.path + "/groups"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for byte: UInt8 in [0xFF, 0xFE] {
            let path = Array((folder + "/").utf8) + [byte] + Array(".json".utf8) + [0]
            let descriptor = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600) }
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            _ = "{}".withCString { write(descriptor, $0, 2) }
            close(descriptor)
        }
        try root.store("group.com.rizq.fine").flush()
        let catalog = SuiteCatalog(root: root.path)
        XCTAssertEqual(try catalog.suites().map(\.suiteName), [], "no suite named U+FFFD")
        let findings = catalog.inspect().filter { $0.message.contains("not valid UTF-8") }
        XCTAssertEqual(findings.map(\.path), ["'\(folder)/'$'\\xfe''.json'", "'\(folder)/'$'\\xff''.json'"])
    }

    /// A key or value that is not UTF-8 in an import is refused whole, with its position.
    func testAnImportWithInvalidUTF8IsRefusedWhole() throws {
        let store = try TemporaryRoot().store()
        for bytes: [UInt8] in [Array(#"{"a"#.utf8) + [0xFF] + Array(#"": 1}"#.utf8), Array(#"{"a": ""#.utf8) + [0xFE] + Array(#""}"#.utf8)] {
            XCTAssertThrowsError(try store.importJSON(Data(bytes))) { error in
                XCTAssertTrue("\(error)".contains("not valid UTF-8"), "\(error)")
            }
        }
        XCTAssertEqual(store.keys, [])
    }
}
