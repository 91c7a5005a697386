import Foundation
import RizqCore
import RizqFleet
import RizqPrefs
import Synchronization
import Testing

/// `NOTIFY` has no replay: a notification that never arrives must only delay a change, since
/// every notification (and every reconnect) makes a host read everything above the last
/// revision it has seen.
@Suite struct FleetNotificationTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    @Test func aLostNotificationOnlyDelaysAChange() async throws {
        let suite = uniqueSuite("lost-notify")
        let root = temporaryRoot("lost-notify")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let engine = LosingEngine(try server.engine())
        let listener = try openFleet(suite, engine: engine, root: root + "/listener", origin: "listener")
        let running = Task { try await listener.run() }
        defer { running.cancel() }
        #expect(await waitUntil { listener.status.isLive }, "the listener went live")

        let writer = try openFleet(suite, engine: try server.engine(), root: root + "/writer", origin: "writer")
        engine.loseNext()
        guard case .committed(let first, _) = try await writer.set("one", forKey: "a") else {
            Issue.record("the first write is committed")
            return
        }
        #expect(await waitUntil { engine.lost.contains(first) }, "the first write's notification arrived, and was dropped")
        #expect(listener.value(forKey: "a") == nil, "so the listener has not seen it yet")

        try await writer.set("two", forKey: "b")
        #expect(await waitUntil { listener.value(forKey: "b") == "two" }, "the next notification arrives")
        #expect(listener.value(forKey: "a") == "one", "and the catch-up it starts brings the lost change too")
        #expect(listener.revision >= first + 1)
    }
}

/// A real engine whose notifications can be lost, one at a time, on purpose.
final class LosingEngine: FleetEngine {
    private let engine: PostgresFleetEngine
    private let state = Mutex<(armed: Bool, lost: [Int64])>((false, []))

    init(_ engine: PostgresFleetEngine) { self.engine = engine }

    /// The next notification (with a revision) is dropped.
    func loseNext() { state.withLock { $0.armed = true } }

    /// The revisions of the notifications dropped so far.
    var lost: [Int64] { state.withLock { $0.lost } }

    var endpointDescription: String { engine.endpointDescription }

    func prepare(suite: String) async throws(FleetError) -> FleetSuiteHead { try await engine.prepare(suite: suite) }

    func write(_ change: FleetChange, suite: String) async throws(FleetError) -> FleetWriteDecision {
        try await engine.write(change, suite: suite)
    }

    func changes(suite: String, after revision: Int64, limit: Int) async throws(FleetError) -> FleetChangeBatch {
        try await engine.changes(suite: suite, after: revision, limit: limit)
    }

    func listen(
        suite: String,
        onReady: nonisolated(nonsending) @escaping @Sendable () async -> Void,
        onNotify: nonisolated(nonsending) @escaping @Sendable (FleetNotice) async -> Void
    ) async throws(FleetError) {
        try await engine.listen(suite: suite, onReady: onReady) { [self] notice in
            let drop = state.withLock { state in
                guard state.armed, let revision = notice.revision else { return false }
                state.armed = false
                state.lost.append(revision)
                return true
            }
            if !drop { await onNotify(notice) }
        }
    }

    func purgeTombstones(suite: String, olderThan age: Duration) async throws(FleetError) -> Int {
        try await engine.purgeTombstones(suite: suite, olderThan: age)
    }

    func shutdown() async { await engine.shutdown() }
}
