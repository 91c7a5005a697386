import Foundation
import RizqCore
import RizqFleet
import RizqPrefs
import Testing

enum Flags {
    static let newCheckout = Key<Bool>("feature.newCheckout", default: false)
    static let timeout = Key<Int>("http.timeout", default: 30)
    enum Theme: String { case light, dark }
    static let theme = Key<Theme>("ui.theme", default: .light)
}

/// A fleet suite in one process against the real engine: typed keys, reads from the cache,
/// writes committed, refused values, a stale status, queued writes.
@Suite struct FleetSuiteTests {
    let server: PostgresServer
    let root = temporaryRoot("suite")

    init() throws {
        server = try PostgresServer.shared()
    }

    @Test func typedKeysAreWrittenToTheEngineAndReadFromTheCache() async throws {
        let suite = uniqueSuite("typed")
        let engine = try server.engine()
        let fleet = try openFleet(suite, engine: engine, root: root + "/a")
        #expect(fleet[Flags.newCheckout] == false, "the default, before anything is stored")
        let write = try await fleet.set(true, for: Flags.newCheckout)
        guard case .committed(let revision, let stamp) = write else { Issue.record("committed: \(write)"); return }
        #expect(revision > 0)
        #expect(stamp.origin == "test-host")
        try await fleet.set(45, for: Flags.timeout)
        try await fleet.set(.dark, for: Flags.theme)
        #expect(fleet[Flags.newCheckout] == true)
        #expect(fleet[Flags.timeout] == 45)
        #expect(fleet[Flags.theme] == .dark)

        // What the engine holds is what another host reads.
        let other = try openFleet(suite, engine: try server.engine(), root: root + "/b", origin: "other-host")
        #expect(other[Flags.timeout] == 30, "a new host's cache is empty until it catches up")
        try await other.synchronize()
        #expect(other[Flags.newCheckout] == true)
        #expect(other[Flags.timeout] == 45)
        #expect(other[Flags.theme] == .dark)
        #expect(other.stamp(forKey: "http.timeout")?.origin == "test-host")

        try await other.reset(Flags.theme)
        try await fleet.synchronize()
        #expect(fleet[Flags.theme] == .light, "a deletion reaches the other host")
        #expect(fleet.value(forKey: "ui.theme") == nil)
    }

    @Test func theCacheIsASuiteFileThatOutlivesTheProcess() async throws {
        let suite = uniqueSuite("cache")
        do {
            let fleet = try openFleet(suite, engine: try server.engine(), root: root + "/c")
            try await fleet.set("on", forKey: "mode")
            try await fleet.synchronize()
            fleet.settle()
        }
        let cache = try SuiteStore(suite: "fleet." + suite, appID: "rizq.fleet.tests", root: root + "/c")
        #expect(cache.string(forKey: "mode") == "on", "the cache is a plain suite file")
        // Reopened with an engine that cannot be reached: the value is there, the status stale.
        let offline = try PostgresFleetEngine(configuration: PostgresFleetConfiguration(
            host: "127.0.0.1", port: 1, username: "nobody", database: "none", tls: .disable,
            connectTimeout: .seconds(1), callTimeout: .seconds(1)))
        let fleet = try openFleet(suite, engine: offline, root: root + "/c")
        #expect(fleet.value(forKey: "mode") == "on")
        guard case .stale(let since?) = fleet.status else { Issue.record("stale with a date: \(fleet.status)"); return }
        #expect(since <= Date())
        await #expect(throws: FleetError.self) { try await fleet.synchronize() }
        do {
            try await fleet.set("off", forKey: "mode")
            Issue.record("a write without the engine never succeeds")
        } catch {
            #expect(error.isEngineUnavailable, "\(error)")
        }
        #expect(fleet.value(forKey: "mode") == "on", "nothing changed")
    }

    @Test(arguments: [
        ("api.token", PrefValue.string("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")),
        ("database.password", PrefValue.string("hunter2-hunter2")),
        ("payments.key", PrefValue.string("sk_live_51H8abcdefghijklmnopqrstuvwx")),
        ("oauth", PrefValue.dictionary(["refresh_token": "1//0gabcdefghijklmnop"])),
        ("github", PrefValue.string("ghp_abcdefghijklmnopqrstuvwxyz0123456789")),
    ])
    func credentialsNeverReachTheEngine(key: String, value: PrefValue) async throws {
        let suite = uniqueSuite("secret")
        let engine = try server.engine()
        let fleet = try openFleet(suite, engine: engine, root: root + "/s-\(UUID().uuidString.prefix(4))")
        do {
            try await fleet.set(value, forKey: key)
            Issue.record("a credential was accepted")
        } catch {
            guard case .secretRefused(let refusedKey, let reason) = error else { Issue.record("\(error)"); return }
            #expect(refusedKey == key)
            #expect(!error.description.contains(value.description), "the message never holds the value")
            #expect(!reason.isEmpty)
        }
        _ = try await engine.prepare(suite: suite)
        #expect(try await engine.changes(suite: suite, after: 0, limit: 10).entries.isEmpty, "nothing was written")
        #expect(fleet.value(forKey: key) == nil)
    }

    @Test func settingsNamedLikeCredentialsButHoldingNoneAreAccepted() async throws {
        let fleet = try openFleet(uniqueSuite("namespaced"), engine: try server.engine(), root: root + "/n")
        try await fleet.set("google", forKey: "auth.provider")
        try await fleet.set(.int(900), forKey: "session.timeout")
        try await fleet.set(true, forKey: "auth.enabled")
        #expect(fleet.value(forKey: "auth.provider") == "google")
    }

    /// `depth` arrays inside one another around `1` (`nested(2)` is `[[1]]`, which nests 2).
    static func nested(_ depth: Int) -> PrefValue {
        (0..<depth).reduce(PrefValue.int(1)) { inner, _ in .array([inner]) }
    }

    @Test func valuesASuiteCannotHoldAreRefusedBeforeAnythingIsSent() async throws {
        let suite = uniqueSuite("invalid")
        let engine = try server.engine()
        let fleet = try openFleet(suite, engine: engine, root: root + "/i")
        // Refused with the local suite's own reason (the same check), nothing sent.
        let refused: [(String, PrefValue)] = [
            ("deep", Self.nested(PrefValue.maximumNesting + 1)),
            ("when", .date(Date(timeIntervalSince1970: 1e14))),
            ("lookalike", ["$date": "2026-11-22T13:47:00Z"]),
            (SuiteMigrations.versionKey, 1),
        ]
        for (key, value) in refused {
            var local: SuiteStoreError?
            do { try SuiteStore.validate(value, forKey: key) } catch { local = error }
            guard case .invalidValue(_, let reason)? = local else {
                Issue.record("a local suite refuses \(key) too")
                continue
            }
            await #expect(throws: FleetError.invalidValue(key: key, reason: reason)) { try await fleet.set(value, forKey: key) }
        }
        _ = try await engine.prepare(suite: suite)
        #expect(try await engine.changes(suite: suite, after: 0, limit: 10).entries.isEmpty, "nothing was sent")

        // What a suite holds, a fleet suite holds, and another host reads back as it was: the
        // deepest value, and NaN and the infinities (tagged, as in a suite file).
        let held: [String: PrefValue] = [
            "deepest": Self.nested(PrefValue.maximumNesting), "nan": .double(.nan), "inf": .double(.infinity), "-inf": .double(-.infinity),
        ]
        for (key, value) in held { try await fleet.set(value, forKey: key) }
        let other = try openFleet(suite, engine: try server.engine(), root: root + "/i-other", origin: "other")
        try await other.synchronize()
        for (key, value) in held {
            #expect(other.value(forKey: key) == value, "\(key) read back on another host")
        }
        guard case .double(let number)? = other.value(forKey: "nan") else { Issue.record("nan is a double"); return }
        #expect(number.isNaN)
    }

    @Test func anOlderWriteIsReportedAsSupersededAndTheCacheShowsTheWinner() async throws {
        let suite = uniqueSuite("superseded")
        let engine = try server.engine()
        // A host whose clock is an hour ahead wrote first; this host has not seen it.
        _ = try await engine.prepare(suite: suite)
        let future = ChangeStamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 3_600_000, counter: 0, origin: "fast-host")
        _ = try await engine.write(FleetChange(key: "k", value: "from the future", stamp: future), suite: suite)
        let fleet = try openFleet(suite, engine: try server.engine(), root: root + "/sup")
        do {
            try await fleet.set("mine", forKey: "k")
            Issue.record("a write that lost was reported as success")
        } catch {
            #expect(error == .superseded(key: "k", by: future))
        }
        // After seeing the winner, this host's next edit is stamped after it, and wins.
        try await fleet.synchronize()
        #expect(fleet.value(forKey: "k") == "from the future")
        let write = try await fleet.set("after seeing it", forKey: "k")
        #expect(write.stamp > future)
    }

    @Test func queuedWritesAreKeptDurablyAndSentUnderTheSameRule() async throws {
        let privateServer = try await PrivatePostgres.start()
        let server = privateServer.server
        let suite = uniqueSuite("queue")
        let root = self.root + "/q"
        let fleet = try openFleet(suite, engine: try server.engine(callTimeout: .seconds(2)), root: root, writes: .queueWhenOffline)
        try await fleet.set("before", forKey: "a")
        try await server.ctl("stop-now")
        let queued = try await fleet.set("while down", forKey: "a")
        guard case .queued = queued else { Issue.record("queued: \(queued)"); return }
        try await fleet.set("only queued", forKey: "b")
        #expect(fleet.value(forKey: "a") == "while down", "the cache shows this host's queued write")
        #expect(fleet.queuedWrites.map(\.key) == ["a", "b"])
        try await server.ctl("start")
        let running = Task { try await fleet.run() }
        defer { running.cancel() }
        #expect(await waitUntil { fleet.queuedWrites.isEmpty && fleet.status.isLive }, "sent once the engine is back")
        let other = try openFleet(suite, engine: try server.engine(), root: root + "-other", origin: "other")
        try await other.synchronize()
        #expect(other.value(forKey: "a") == "while down")
        #expect(other.value(forKey: "b") == "only queued")
    }
}
