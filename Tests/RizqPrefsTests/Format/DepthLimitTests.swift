import Foundation
import XCTest
@testable import RizqPrefs
@testable import RizqJSON

/// Issue 29, item 1: the writer and the reader agree on how deep a value may nest. Whatever
/// `set`, `put`, a batch, a commit, an import or the Codable encoder accepts, a fresh process
/// reads back, with every other key of the suite; anything deeper is refused at the call, and
/// the suite is untouched. (An acknowledged `set` of 512 nested arrays used to make the next
/// open move the whole file aside.)
final class DepthLimitTests: XCTestCase {
    /// `depth` arrays, one inside the other, around `innermost`.
    static func nested(_ depth: Int, around innermost: PrefValue = .int(1)) -> PrefValue {
        var value = innermost
        for _ in 0..<depth { value = .array([value]) }
        return value
    }

    /// `depth` dictionaries, one inside the other, around `innermost`.
    static func nestedObjects(_ depth: Int, around innermost: PrefValue = .int(1)) -> PrefValue {
        var value = innermost
        for _ in 0..<depth { value = .dictionary(["d": value]) }
        return value
    }

    /// The deepest value a suite holds: the file's top-level object is one level of the
    /// reader's 512, so a value may nest 511 containers (a tagged date or double counting as one).
    func testEveryDepthIsStoredAndReadBackOrRefusedAtTheCall() throws {
        let cases: [(String, PrefValue, accepted: Bool)] = [
            ("arrays 511", Self.nested(511), true),
            ("arrays 512", Self.nested(512), false),
            ("arrays 513", Self.nested(513), false),
            ("arrays 5000", Self.nested(5_000), false),
            ("objects 511", Self.nestedObjects(511), true),
            ("objects 512", Self.nestedObjects(512), false),
            ("date at 511", Self.nested(510, around: .date(Date(timeIntervalSince1970: 1))), true),
            ("date at 512", Self.nested(511, around: .date(Date(timeIntervalSince1970: 1))), false),
            ("data at 512", Self.nested(511, around: .data(Data([1]))), false),
        ]
        for (name, value, accepted) in cases {
            let root = TemporaryRoot()
            let store = try root.store()
            store.set("kept", forKey: "other")
            do {
                try store.put(value, forKey: "deep")
                XCTAssertTrue(accepted, "\(name): accepted, but the reader refuses it")
            } catch {
                XCTAssertFalse(accepted, "\(name): refused: \(error)")
                XCTAssertTrue("\(error)".contains("nest"), "\(name): the error says why: \(error)")
            }
            try store.flush()
            let fresh = try Child.run(root, "group.com.rizq.test", ["read", "other:string"])
            XCTAssertEqual(fresh.lines, [Data("kept".utf8).base64EncodedString()], "\(name): a fresh process reads the suite: \(fresh.stderr)")
            XCTAssertFalse(fresh.stderr.contains("moved it aside"), "\(name): \(fresh.stderr)")
            if accepted {
                let deep = try Child.run(root, "group.com.rizq.test", ["read", "deep:json"])
                XCTAssertEqual(deep.lines, [value.description], "\(name): read back whole")
            }
        }
    }

    /// The non-throwing `set` refuses the same values (an error in the log) and changes nothing.
    func testSetLogsAndChangesNothing() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "deep")
        store.set(Self.nested(600), forKey: "deep")
        XCTAssertEqual(store.prefValue(forKey: "deep"), 1)
        try store.flush()
        XCTAssertEqual(try root.fileObject()["deep"] as? Int, 1)
    }

    /// A batch and a commit refuse at their `set`, and the whole batch is dropped when the body
    /// rethrows.
    func testBatchAndCommitRefuseATooDeepValue() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        XCTAssertThrowsError(try store.batch { batch in
            try batch.set(1, forKey: "fine")
            try batch.set(Self.nested(512), forKey: "deep")
        })
        XCTAssertThrowsError(try store.commit { batch in try batch.set(Self.nestedObjects(700), forKey: "deep") })
        XCTAssertNil(store.prefValue(forKey: "fine"))
        XCTAssertNil(store.prefValue(forKey: "deep"))
    }

    /// A recursive Codable tree: a key refuses one too deep to read back (a log line, the value
    /// unchanged), and stores one that fits.
    func testARecursiveCodableTreeIsRefusedBeyondTheLimit() throws {
        final class Node: Codable, Equatable, @unchecked Sendable {
            var child: Node?
            init(child: Node?) { self.child = child }
            static func == (left: Node, right: Node) -> Bool { left.child == right.child }
            static func chain(_ depth: Int) -> Node {
                var node = Node(child: nil)
                for _ in 1..<depth { node = Node(child: node) }
                return node
            }
        }
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("kept", forKey: "other")
        let key = Key<Node?>(codable: "tree", default: nil, store: store)
        // Each node is one object: 511 of them fit under the file's top level.
        key.value = Node.chain(511)
        XCTAssertNotNil(key.value)
        key.value = Node.chain(2_000)
        XCTAssertEqual(key.value.map { _ in true }, true, "the refused tree left the stored one")
        try store.flush()
        let fresh = try Child.run(root, "group.com.rizq.test", ["read", "other:string"])
        XCTAssertEqual(fresh.lines, [Data("kept".utf8).base64EncodedString()], fresh.stderr)
        XCTAssertThrowsError(try PrefValueEncoder().encode(Node.chain(2_000)), "the encoder refuses the tree without recursing through it")
    }

    /// What an import accepts a fresh process reads back: the import reads with the same limit.
    func testAnImportOfTheDeepestValueReadsBack() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let fits = "{\"deep\": " + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + ", \"other\": 1}"
        XCTAssertNoThrow(try store.importJSON(Data(fits.utf8)))
        let deeper = "{\"deep\": " + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}"
        XCTAssertThrowsError(try store.importJSON(Data(deeper.utf8)))
        try store.flush()
        let fresh = try Child.run(root, "group.com.rizq.test", ["read", "other:int"])
        XCTAssertEqual(fresh.lines, ["1"], fresh.stderr)
    }
}
