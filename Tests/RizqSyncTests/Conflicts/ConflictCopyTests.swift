import Foundation
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// Stray conflict copies of a suite or of a replica: merged key by key, archived, and a second
/// run changes nothing.
final class ConflictCopyTests: XCTestCase {
    func testTheNamesOfConflictCopies() {
        XCTAssertEqual(ConflictCopyName.original(of: "com.example.notes.sync-conflict-20261126-103132-PPR2SPG.json"), "com.example.notes.json")
        XCTAssertEqual(ConflictCopyName.original(of: "replica-a.sync-conflict-20261126-103132-PPR2SPG.json"), "replica-a.json")
        XCTAssertEqual(ConflictCopyName.original(of: "notes (Jane's conflicted copy 2026-11-26).json"), "notes.json")
        XCTAssertNil(ConflictCopyName.original(of: "notes.json"))
        XCTAssertNil(ReplicaFolder.replicaID(ofFile: "replica-a.sync-conflict-20261126-103132-PPR2SPG.json"))
        XCTAssertEqual(ReplicaFolder.replicaID(ofFile: "replica-a.json"), "a")
    }

    func testAReplicasConflictCopyIsMergedByStampAndArchived() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.set(12, forKey: "fontSize")
        try a.sync.syncNow()
        let fontStamp = try XCTUnwrap(try a.sync.entries["fontSize"]).stamp
        // A clone of device X wrote X's replica too; the engine kept the loser as a copy.
        let newer = ChangeStamp(milliseconds: fontStamp.milliseconds + 1, counter: 0, origin: "device-x")
        let older = ChangeStamp(milliseconds: 1, counter: 0, origin: "device-x")
        let copy = ReplicaDocument(replica: "device-x", app: TestDevice.app, suite: TestDevice.app, entries: [
            "fontSize": SyncedEntry(value: 16, stamp: newer), "theme": SyncedEntry(value: "light", stamp: older),
            "lastPage": SyncedEntry(value: 3, stamp: older),
        ])
        let path = folder + "/replica-device-x.sync-conflict-20261126-103132-PPR2SPG.json"
        try Data(copy.encoded()).write(to: URL(fileURLWithPath: path))

        let dryRun = try a.sync.mergeConflictCopies(dryRun: true)
        XCTAssertEqual(dryRun, [ConflictCopyMerge(path: path, kind: .replica, changedKeys: ["fontSize", "lastPage"], archivedTo: nil)])
        XCTAssertEqual(a.value("fontSize"), 12, "a dry run changes nothing")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))

        let merged = try a.sync.mergeConflictCopies()
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged.first?.kind, .replica)
        XCTAssertEqual(a.value("fontSize"), 16, "the newer stamp wins")
        XCTAssertEqual(a.value("theme"), "dark", "the older one does not")
        XCTAssertEqual(a.value("lastPage"), 3, "a key only the copy had is taken")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the copy left the synced folder")
        let archived = try XCTUnwrap(merged.first?.archivedTo)
        XCTAssertTrue(archived.hasPrefix(a.root + "/sync/conflicts/"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: archived), "and is kept in the archive")
        XCTAssertEqual(try a.replica()?.entries["fontSize"]?.stamp, newer, "its stamp travels on unchanged")

        let before = fileSnapshot(under: scratch.path).filter { !$0.key.contains("/sync/apps/") }
        XCTAssertEqual(try a.sync.mergeConflictCopies(), [], "a second run finds nothing")
        XCTAssertEqual(fileSnapshot(under: scratch.path).filter { !$0.key.contains("/sync/apps/") }, before, "and changes nothing")
    }

    func testASuitesConflictCopyIsMergedKeyByKeyAndArchived() throws {
        let scratch = TemporaryFolder()
        let root = scratch.sub("root")
        let store = try SuiteStore(suite: "com.example.notes", appID: "com.example.notes", root: root)
        store.set("dark", forKey: "theme")
        store.set(12, forKey: "fontSize")
        try store.flush()
        let directory = store.location.directory
        // Written on another machine a minute later, then synced back as a conflict copy.
        let newer = directory + "/com.example.notes.sync-conflict-20261126-103132-PPR2SPG.json"
        try #"{"fontSize": 16, "sidebar": true, "theme": "dark"}"#.write(toFile: newer, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: newer)
        // And an old one, from before the suite's last change.
        let older = directory + "/com.example.notes.sync-conflict-20250101-000000-ABCDEFG.json"
        try #"{"fontSize": 9, "zoom": 2}"#.write(toFile: older, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: older)

        let dryRun = try SuiteConflictCopies.merge(into: store, dryRun: true)
        XCTAssertEqual(dryRun.map(\.changedKeys), [["zoom"], ["fontSize", "sidebar"]])
        XCTAssertEqual(store.entries["fontSize"], 12)

        let merged = try SuiteConflictCopies.merge(into: store, dryRun: false)
        XCTAssertEqual(merged.count, 2)
        XCTAssertEqual(store.entries["fontSize"], 16, "the newer copy's value wins")
        XCTAssertEqual(store.entries["sidebar"], true, "keys the suite lacked are taken")
        XCTAssertEqual(store.entries["zoom"], 2, "also from an older copy: nothing stored is dropped")
        XCTAssertEqual(store.entries["theme"], "dark")
        XCTAssertEqual(SuiteConflictCopies.copies(of: store), [])
        for result in merged {
            XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(result.archivedTo)))
        }
        let reopened = try SuiteStore(suite: "com.example.notes", appID: "com.example.notes", root: root)
        XCTAssertEqual(reopened.entries["fontSize"], 16, "written to the suite file")
        XCTAssertEqual(try SuiteConflictCopies.merge(into: store, dryRun: false), [], "a second run changes nothing")
    }
}
