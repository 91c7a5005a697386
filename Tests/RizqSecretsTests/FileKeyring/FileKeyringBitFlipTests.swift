import Foundation
import XCTest
@testable import RizqSecrets

/// Issue 50, item 21: single-bit flips in a file keyring's items read as *absent* (the
/// adversarial run: 22 of 400). A changed bit in an item's hashed name or MAC makes it
/// unfindable; a lookup that then finds nothing must say the keyring is damaged — never "not
/// found", never another value.
final class FileKeyringBitFlipTests: XCTestCase {
    func testEveryFlippedBitOfTheItemsIsTheValueOrDamageNeverAbsent() throws {
        let path = try temporaryKeyringFolder(self) + "/keyrings/default.keyring"
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("first value", forAccount: "A")
        try store.setSecret("second value", forAccount: "B")
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try FileKeyringFile.decode(original)
        // The items: from the first hashed attribute's name to the end of the file (the header's
        // salt and iteration count, whose flips only change the key, come before).
        let start = try XCTUnwrap(firstIndex(of: Array("account".utf8), in: original))
        XCTAssertEqual(file.items.count, 2)
        var absent: [Int] = []
        var wrong: [Int] = []
        var damaged = 0
        for bit in (start * 8)..<(original.count * 8) {
            var flipped = original
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            try Data(flipped).write(to: URL(fileURLWithPath: path))
            for (account, value) in [("A", "first value"), ("B", "second value")] {
                do {
                    let read = try fileKeyringStore(path, password: "pw").secret(forAccount: account)
                    if read == nil { absent.append(bit) } else if read != value { wrong.append(bit) }
                } catch {
                    switch error {
                    case .damaged, .wrongPassphrase: damaged += 1
                    default: XCTFail("bit \(bit): \(error)")
                    }
                }
            }
        }
        XCTAssertEqual(absent, [], "bits whose flip made an item read as absent")
        XCTAssertEqual(wrong, [], "bits whose flip made an item read as another value")
        XCTAssertGreaterThan(damaged, 0)
    }

    private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
