import Foundation
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// What another device publishes is foreign input: a stamp, a depth, a size, a file, a value
/// this device cannot take is skipped and said so, and sync goes on (issue 37, items 8–10, 12, 13).
final class PeerInputTests: XCTestCase {
    /// Writes a peer's replica as that device would (or as someone who forges one would).
    private func plant(_ id: String, in folder: String, _ entries: [String: SyncedEntry], named name: String? = nil) throws {
        let document = ReplicaDocument(replica: id, app: TestDevice.app, suite: TestDevice.app, entries: entries)
        try Data(document.encoded()).write(to: URL(fileURLWithPath: folder + "/" + (name ?? "replica-\(id).json")))
    }

    private func stamp(_ milliseconds: Int64, _ origin: String, counter: UInt32 = 0) -> ChangeStamp {
        ChangeStamp(milliseconds: milliseconds, counter: counter, origin: origin)
    }

    /// `[[…[1]…]]`: `depth` arrays around an int (it nests `depth`).
    private func nested(_ depth: Int) -> PrefValue {
        var value: PrefValue = .int(1)
        for _ in 0..<depth { value = .array([value]) }
        return value
    }

    // MARK: Item 8: one hostile stamp

    func testAStampFurtherAheadThanTheMaximumOffsetIsSkippedReportedAndDragsNoClock() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        try b.sync.syncNow()
        // The stamp, and a device whose clock says 2100.
        try plant("evil", in: folder, [
            "theme": SyncedEntry(value: "evil", stamp: stamp(Int64.max, "evil", counter: UInt32.max)),
            "fontSize": SyncedEntry(value: 99, stamp: stamp(4_102_444_800_000, "evil")),
        ])
        let events = EventLog(b.sync.events)
        let report = try b.sync.syncNow()
        XCTAssertEqual(b.value("theme"), "dark", "a stamp at the end of time does not win")
        XCTAssertNil(b.value("fontSize"), "nor does one from 2100")
        let skipped = report.skipped.filter { $0.device == "evil" }
        XCTAssertEqual(Set(skipped.compactMap(\.key)), ["theme", "fontSize"], "\(report.skipped)")
        for item in skipped {
            XCTAssertTrue(item.reason.contains("more than the maximum offset of 1 day"), item.reason)
            XCTAssertTrue(item.path.hasSuffix("/replica-evil.json"))
        }
        XCTAssertNotNil(events.wait { if case .inputSkipped(let item) = $0 { return item.key == "theme" } else { return false } })

        // The next edit is stamped by this device's clock, not 2100, not the end of time; it
        // travels, and no replica carries the forged stamps on.
        let before = HybridLogicalClock.systemMilliseconds()
        try b.sync.set("light", forKey: "theme")
        try b.sync.set(14, forKey: "fontSize")
        try b.sync.syncNow()
        let mine = try XCTUnwrap(try b.sync.entries["theme"]).stamp
        XCTAssertEqual(mine.origin, "device-b")
        XCTAssertLessThan(mine.milliseconds, before + 60_000, "the clock was not dragged ahead")
        try a.sync.syncNow()
        XCTAssertEqual(a.value("theme"), "light")
        XCTAssertEqual(a.value("fontSize"), 14)
        for device in [a, b] {
            let replica = try XCTUnwrap(try device.replica())
            XCTAssertFalse(replica.entries.values.contains { $0.stamp.origin == "evil" }, "never published again")
            XCTAssertLessThan(try XCTUnwrap(replica.newest).milliseconds, before + 60_000)
        }
        // It is asked again each round, and said once.
        XCTAssertEqual(try b.sync.syncNow().skipped.filter { $0.device == "evil" }.count, 2)
        XCTAssertEqual(events.all.filter { if case .inputSkipped = $0 { return true } else { return false } }.count, 2)
    }

    func testASavedStateThatHoldsAHostileStampIsRepairedOnLoad() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let b = try TestDevice("b", in: scratch, folder: folder, first: true)
        try b.sync.set("dark", forKey: "theme")
        try b.sync.syncNow()
        // What an earlier version saved after merging the stamp (and published).
        let path = b.sync.statePath
        let hostile = "9223372036854775807.4294967295@evil"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let own = try XCTUnwrap(try b.sync.entries["theme"]).stamp.description
        text = text.replacingOccurrences(of: own, with: hostile)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains(hostile))

        // A new process of this device: opening it, editing and a round neither trap nor keep it.
        let fresh = try DeviceSync(store: b.store, replicaID: "device-b")
        XCTAssertNil(try fresh.entries["theme"], "dropped from the state as it is read")
        try fresh.set(15, forKey: "fontSize")
        let report = try fresh.syncNow()
        XCTAssertEqual(report.skipped.first { $0.key == "theme" }?.path, path, "\(report.skipped)")
        XCTAssertTrue(report.skipped.first { $0.key == "theme" }?.reason.contains("maximum offset") ?? false)
        XCTAssertEqual(Set(report.recorded), ["fontSize", "theme"], "the suite's value is recorded again, with a stamp of now")
        XCTAssertFalse(try String(contentsOfFile: path, encoding: .utf8).contains(hostile), "the saved state no longer holds it")
        let replica = try XCTUnwrap(try b.replica())
        XCTAssertEqual(replica.entries["theme"]?.value, "dark")
        XCTAssertEqual(replica.entries["theme"]?.stamp.origin, "device-b")
        XCTAssertEqual(b.value("theme"), "dark", "the suite keeps its value")
    }

    // MARK: Item 9: a value as deep as a suite holds

    func testAValueAsDeepAsASuiteHoldsSyncsAndADeeperReplicaIsSkipped() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        let deep = nested(PrefValue.maximumNesting)
        XCTAssertEqual(PrefValue.maximumNesting, 511)
        a.store.set(deep, forKey: "tags")  // what `rizq-prefs set` accepts
        XCTAssertEqual(a.value("tags"), deep)
        XCTAssertEqual(try a.sync.syncNow().recorded, ["tags"])
        // The state and the replica nest it two levels deeper than the suite: they still read.
        XCTAssertEqual(try a.sync.syncNow().recorded, [], "the device's own state reads back")
        XCTAssertEqual(try DeviceSync(store: a.store, replicaID: "device-a").entries["tags"]?.value, deep, "and in a new process")
        try b.sync.syncNow()
        XCTAssertEqual(b.value("tags"), deep, "it reached the other device")
        try b.sync.set(3, forKey: "fontSize")
        try b.sync.syncNow()
        try a.sync.syncNow()
        XCTAssertEqual(a.value("fontSize"), 3, "and sync goes on")

        // One level more than a suite holds, from a peer: no device of this version writes it,
        // so that replica is skipped as unreadable and said; the others are taken.
        let later = HybridLogicalClock.systemMilliseconds() + 1_000
        try plant("deep", in: folder, [
            "tags": SyncedEntry(value: nested(PrefValue.maximumNesting + 1), stamp: stamp(later, "deep")),
            "lastPage": SyncedEntry(value: 9, stamp: stamp(later, "deep")),
        ])
        try plant("other", in: folder, ["lastPage": SyncedEntry(value: 8, stamp: stamp(later, "other"))])
        let report = try b.sync.syncNow()
        XCTAssertEqual(b.value("lastPage"), 8)
        XCTAssertEqual(b.value("tags"), deep)
        let skipped = try XCTUnwrap(report.skipped.first { $0.path.hasSuffix("/replica-deep.json") }, "\(report.skipped)")
        XCTAssertNil(skipped.key, "the whole file")
        XCTAssertTrue(skipped.reason.contains("nesting deeper"), skipped.reason)
        XCTAssertEqual(try b.sync.syncNow().recorded, [])
    }

    // MARK: Item 10: big peers

    func testTwoPeersTooLargeTogetherAreTakenAsFarAsTheSuiteHoldsAndLocalEditsKeepGoingOut() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let keys = ["theme", "big1", "big2"]
        let b = try TestDevice("b", in: scratch, folder: folder, keys: keys, first: true)
        let now = HybridLogicalClock.systemMilliseconds()
        // The two replicas: 100 and 160 MB; each fits a suite, together they do not.
        try plant("big1", in: folder, ["big1": SyncedEntry(value: .string(String(repeating: "x", count: 100_000_000)), stamp: stamp(now, "big1"))])
        try plant("big2", in: folder, ["big2": SyncedEntry(value: .string(String(repeating: "y", count: 160_000_000)), stamp: stamp(now, "big2"))])
        try b.sync.set("dark", forKey: "theme")
        let report = try b.sync.syncNow()
        XCTAssertTrue(report.published, "this device's edit went out")
        XCTAssertEqual(b.value("theme"), "dark")
        XCTAssertEqual(b.value("big1").map { if case .string(let text) = $0 { return text.utf8.count } else { return 0 } }, 100_000_000)
        // (Asserted without printing a value: a failure would print 160 MB.)
        XCTAssertTrue(b.value("big2") == nil, "what would make the suite too large is not taken")
        let skipped = try XCTUnwrap(report.skipped.first { $0.key == "big2" }, "\(report.skipped)")
        XCTAssertEqual(skipped.device, "big2")
        XCTAssertTrue(skipped.reason.contains("over the 224 MiB"), skipped.reason)

        // Later edits keep going out (the replica another device reads).
        try b.sync.set("light", forKey: "theme")
        let again = try b.sync.syncNow()
        XCTAssertTrue(again.published)
        XCTAssertEqual(again.skipped.first { $0.key == "big2" }?.device, "big2", "still skipped, still said")
        let replica = try XCTUnwrap(try b.replica())
        XCTAssertEqual(replica.entries["theme"]?.value, "light")
        XCTAssertTrue(replica.entries["big1"] != nil, "what was taken is passed on")
        XCTAssertTrue(replica.entries["big2"] == nil)
    }

    // MARK: Item 12: files in the folder

    func testLinksFIFOsAndFilesSpeakingForAnotherDeviceAreSkippedAndSaid() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let elsewhere = scratch.sub("elsewhere")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        try b.sync.syncNow()
        let later = HybridLogicalClock.systemMilliseconds() + 1_000
        // A link named like a replica (Syncthing carries links), to a replica elsewhere.
        try plant("device-x", in: elsewhere, ["theme": SyncedEntry(value: "linked", stamp: stamp(later, "device-x"))])
        try FileManager.default.createSymbolicLink(atPath: folder + "/replica-device-x.json", withDestinationPath: elsewhere + "/replica-device-x.json")
        // A FIFO named like one: a read would wait for ever.
        XCTAssertEqual(mkfifo(folder + "/replica-device-fifo.json", 0o600), 0)
        // A file of device y that speaks for device a, and one named like this device's own.
        try plant("device-a", in: folder, ["theme": SyncedEntry(value: "forged", stamp: stamp(later, "device-a"))], named: "replica-device-y.json")
        try plant("device-b", in: folder, ["theme": SyncedEntry(value: "forged-self", stamp: stamp(later, "device-b"))])

        let events = EventLog(b.sync.events)
        let report = try b.sync.syncNow()
        XCTAssertEqual(b.value("theme"), "dark", "none of them was taken")
        let reasons = Dictionary(report.skipped.filter { $0.key == nil }.map { (($0.path as NSString).lastPathComponent, $0.reason) }) { first, _ in first }
        XCTAssertTrue(reasons["replica-device-x.json"]?.contains("symbolic link") ?? false, "\(reasons)")
        XCTAssertTrue(reasons["replica-device-fifo.json"]?.contains("FIFO") ?? false, "\(reasons)")
        XCTAssertTrue(reasons["replica-device-y.json"]?.contains("device 'device-a'") ?? false, "\(reasons)")
        XCTAssertNil(reasons["replica-device-b.json"], "this device's own file is never read as another's: it is written over")
        XCTAssertEqual(try b.replica()?.entries["theme"]?.value, "dark", "this device's replica is its own again")
        for name in ["replica-device-x.json", "replica-device-fifo.json", "replica-device-y.json"] {
            XCTAssertNotNil(events.wait { if case .unreadableReplica(let path, _) = $0 { return path.hasSuffix("/" + name) } else { return false } }, name)
        }
        XCTAssertEqual(try a.sync.syncNow().merged, [], "A took nothing forged either")
        XCTAssertEqual(a.value("theme"), "dark")
    }

    // MARK: Item 13: credentials from peers

    func testAPeersCredentialsAreNeitherMergedNorPublishedAgain() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let keys = ["note", "settings", "theme"]
        let b = try TestDevice("b", in: scratch, folder: folder, keys: keys, first: true)
        let token = FakeToken.github()
        let access = FakeToken.opaque()
        let later = HybridLogicalClock.systemMilliseconds() + 1_000
        try plant("peer", in: folder, [
            "note": SyncedEntry(value: .string(token), stamp: stamp(later, "peer")),
            "settings": SyncedEntry(value: .dictionary(["access_token": .string(access)]), stamp: stamp(later, "peer")),
            "theme": SyncedEntry(value: "dark", stamp: stamp(later, "peer")),
        ])
        let report = try b.sync.syncNow()
        XCTAssertEqual(b.value("theme"), "dark", "the rest is taken")
        XCTAssertNil(b.value("note"))
        XCTAssertNil(b.value("settings"))
        let skipped = report.skipped.filter { $0.device == "peer" }
        XCTAssertEqual(Set(skipped.compactMap(\.key)), ["note", "settings"], "\(report.skipped)")
        for item in skipped {
            XCTAssertTrue(item.reason.contains("looks like a credential"), item.reason)
            XCTAssertFalse(item.reason.contains(token) || item.reason.contains(access), "never the value")
        }
        for secret in [token, access] {
            XCTAssertEqual(filesContaining(secret, under: b.root), [], "not in the suite, the state or anything of B's")
            XCTAssertEqual(filesContaining(secret, under: folder), ["replica-peer.json"], "not published again")
        }

        // A state that already holds one (merged by an earlier version) drops it on load, and
        // the replica stops carrying it.
        let path = b.sync.statePath
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let entries = try XCTUnwrap(text.range(of: "\"entries\": {"), text)
        text.insert(contentsOf: "\n    \"note\": {\"stamp\": \"\(later).0@peer\", \"value\": \"\(token)\"},", at: entries.upperBound)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNotNil(try SyncState(parsing: Array(text.utf8), path: path).entries["note"], "planted as an earlier version saved it")
        let fresh = try DeviceSync(store: b.store, replicaID: "device-b")
        let repaired = try fresh.syncNow()
        XCTAssertEqual(repaired.skipped.first { $0.key == "note" }?.path, path, "\(repaired.skipped)")
        XCTAssertEqual(filesContaining(token, under: b.root), [], "gone from the state")
        XCTAssertEqual(filesContaining(token, under: folder), ["replica-peer.json"])
    }

    // MARK: Issue 50, item 11: how much of a folder a round reads

    /// Peer replicas had no bound on how many are read in a round, nor on what the cache keeps:
    /// 300 replica files (what anyone who can write the folder may drop there) are read 128 at
    /// most, the rest reported and left, and sync goes on.
    func testARoundReadsABoundedNumberOfReplicaFiles() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        for index in 0..<300 {
            try plant("peer\(index)", in: folder, ["n\(index)": SyncedEntry(value: .int(index), stamp: stamp(HybridLogicalClock.systemMilliseconds(), "peer\(index)"))])
        }
        let report = try a.sync.syncNow()
        let notRead = report.skipped.filter { $0.reason.contains("not read this round: a round reads at most 128 replica files") }
        XCTAssertEqual(notRead.count, 300 - 128, "\(report.skipped.count) skipped")
        let taken = (0..<300).filter { a.value("n\($0)") != nil }.count
        XCTAssertLessThanOrEqual(taken, 128)
        XCTAssertEqual(a.value("theme"), "dark")
    }
}
