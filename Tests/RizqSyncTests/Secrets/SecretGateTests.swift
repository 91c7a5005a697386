import Foundation
import RizqCredentials
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// A value the credential classifier recognises never leaves the machine through a synced key.
final class SecretGateTests: XCTestCase {
    /// Every credential shape the classifier knows (one sample per family and prefix of its own
    /// list, ``CredentialShapes``), each under a neutral key name, and an opaque token under a
    /// key named like one (the classifier's only evidence then).
    static func shapes() -> [(key: String, token: String)] {
        CredentialShapes.all().map { (key: "note", token: $0.value) } + [(key: "api_token", token: FakeToken.opaque())]
    }

    func testTheSamplesCoverEveryFamilyTheClassifierKnows() {
        XCTAssertEqual(CredentialShapes.missingFormats, [], "a format family without a sample: add one to CredentialShapes")
        let samples = CredentialShapes.all()
        XCTAssertEqual(Set(samples.map(\.family.id)), Set(CredentialFamily.all.map(\.id)))
        XCTAssertEqual(
            Set(samples.map(\.family.prefix).filter { !$0.isEmpty }), Set(CredentialFamily.prefixed.map(\.prefix)), "every prefix has a sample")
        for sample in samples {
            XCTAssertNotNil(SecretGate.refusal(key: "note", value: .string(sample.value)), "\(sample.family.name) is refused")
        }
    }

    func testEveryCredentialShapeIsRefusedWithNothingWrittenAnywhere() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, keys: ["note", "api_token", "theme"], first: true)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        // The state file's time of the last merge changes with every round: left out.
        let before = fileSnapshot(under: scratch.path).filter { !$0.key.contains("/sync/apps/") }
        let shapes = Self.shapes()
        for (key, token) in shapes {
            XCTAssertThrowsError(try a.sync.set(.string(token), forKey: key), key) { error in
                guard case .secretRefused(let refusedKey, let reason)? = error as? SyncError else { return XCTFail("\(error)") }
                XCTAssertEqual(refusedKey, key)
                XCTAssertFalse(reason.contains(token), "the reason never holds the value")
                XCTAssertFalse("\(error)".contains(token), "nor does the message")
            }
            // Also nested in a dictionary, and as data.
            XCTAssertThrowsError(try a.sync.set(.dictionary(["inner": .string(token)]), forKey: key))
            XCTAssertThrowsError(try a.sync.set(.data(Data(token.utf8)), forKey: key))
        }
        try a.sync.syncNow()
        XCTAssertEqual(fileSnapshot(under: scratch.path).filter { !$0.key.contains("/sync/apps/") }, before, "neither the suite nor the replica changed")
        for (key, token) in shapes {
            XCTAssertEqual(filesContaining(token, under: scratch.path), [], "no byte of the \(key) value anywhere: suite, sync state, replica")
        }
    }

    func testACredentialStoredThroughTheSuiteStaysLocalAndIsReportedOnce() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, keys: ["note", "theme"], first: true)
        let b = try TestDevice("b", in: scratch, folder: folder, keys: ["note", "theme"])
        try a.sync.set("plain text", forKey: "note")
        try a.sync.syncNow()
        try b.sync.syncNow()
        let events = EventLog(a.sync.events)
        let token = FakeToken.github()
        a.store.set(token, forKey: "note")  // the app bypassed the sync's own setter
        let report = try a.sync.syncNow()
        XCTAssertNotNil(report.refused["note"])
        XCTAssertEqual(a.value("note"), .string(token), "what the user stored locally is kept")
        XCTAssertNotNil(events.wait { if case .secretRefused("note", _) = $0 { return true } else { return false } })
        try a.sync.syncNow()
        try b.sync.syncNow()
        XCTAssertEqual(b.value("note"), "plain text", "the credential did not travel")
        XCTAssertEqual(events.all.filter { if case .secretRefused = $0 { return true } else { return false } }.count, 1, "reported once")
        XCTAssertEqual(filesContaining(token, under: folder), [], "no byte of it in the synced folder")
        XCTAssertEqual(filesContaining(token, under: b.root), [], "nor on the other device")
        XCTAssertEqual(filesContaining(token, under: a.root).filter { $0.hasPrefix("sync/") }, [], "nor in A's sync state")
    }
}
