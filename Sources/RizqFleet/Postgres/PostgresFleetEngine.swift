#if Fleet
import Foundation
import Logging
import PostgresNIO
import RizqCore
import RizqJSON
import RizqPrefs
import Synchronization

/// A ``FleetEngine`` over PostgreSQL, through postgres-nio: two tables, one conditional upsert
/// per write, `LISTEN`/`NOTIFY` per suite (the statements and why they are so:
/// `PostgresFleetSQL`).
///
/// ```swift
/// let engine = try PostgresFleetEngine(url: "postgres://app@db.internal/settings?sslmode=verify-full")
/// let fleet = try FleetSuite("checkout", engine: engine)
/// ```
///
/// It keeps one connection for calls, opened when first needed and again after it is lost,
/// and a second one while ``listen(suite:onReady:onNotify:)`` runs. Every call has the
/// configuration's deadline (``PostgresFleetConfiguration/callTimeout``).
///
/// Values are stored as the text of their JSON in the suite file's format (`text`, not
/// `jsonb`, which would rewrite numbers and keys): a value reads back exactly as it was set.
public final class PostgresFleetEngine: FleetEngine {
    /// Where it connects.
    public let configuration: PostgresFleetConfiguration
    private let connector: PostgresConnector
    private let logger: Logger
    /// The suites' channel numbers, learnt when they are prepared.
    private let channels = Mutex<[String: Int64]>([:])
    private let tablesReady = Atomic<Bool>(false)

    /// An engine for `configuration`; nothing is connected until the first call.
    /// - Throws: ``FleetError/invalidEngine(reason:)`` when TLS cannot be set up (an unreadable
    ///   root certificate).
    public init(configuration: PostgresFleetConfiguration, logger: Logger = Logger(label: "rizq.fleet.postgres")) throws(FleetError) {
        self.configuration = configuration
        self.logger = logger
        self.connector = try PostgresConnector(configuration: configuration, logger: logger)
    }

    /// An engine for a libpq-style URL (see ``PostgresFleetConfiguration/init(url:environment:)``).
    public convenience init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = Logger(label: "rizq.fleet.postgres")) throws(FleetError) {
        try self.init(configuration: PostgresFleetConfiguration(url: url, environment: environment), logger: logger)
    }

    /// `host:port/database`.
    public var endpointDescription: String { configuration.endpointDescription }

    /// Creates the tables if they are missing (checked once per process, and again after a
    /// call found them gone), and registers the suite.
    public func prepare(suite: String) async throws(FleetError) -> FleetSuiteHead {
        for attempt in 1...2 {
            let wasReady = tablesReady.load(ordering: .acquiring)
            do {
                return try await prepareOnce(suite: suite)
            } catch {
                // The tables were dropped since this process made sure of them (the call
                // forgot them): once more, making them again.
                guard attempt == 1, wasReady, !tablesReady.load(ordering: .acquiring) else { throw error }
            }
        }
        throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' could not be registered; try again")
    }

    private func prepareOnce(suite: String) async throws(FleetError) -> FleetSuiteHead {
        if !tablesReady.load(ordering: .acquiring) {
            let exists = try await run { connection in
                let rows = try await connection.query(PostgresFleetSQL.tablesExist, logger: self.logger)
                for try await row in rows { return try row.makeRandomAccess()[0].decode(Bool.self) }
                return false
            }
            if !exists {
                _ = try await run { connection in
                    try await connection.query(PostgresFleetSQL.createTables, logger: self.logger)
                }
                logger.info("created the fleet tables", metadata: ["endpoint": "\(endpointDescription)"])
            }
            tablesReady.store(true, ordering: .releasing)
        }
        for _ in 0..<3 {
            let registered: (Int64, FleetSuiteHead)? = try await run { connection in
                let rows = try await connection.query(PostgresFleetSQL.registerSuite(suite), logger: self.logger)
                for try await row in rows {
                    let cells = row.makeRandomAccess()
                    return (
                        try cells[0].decode(Int64.self),
                        FleetSuiteHead(epoch: try cells[1].decode(String.self), revision: try cells[2].decode(Int64.self), purgedThrough: try cells[3].decode(Int64.self)))
                }
                return nil
            }
            if let (id, head) = registered {
                channels.withLock { $0[suite] = id }
                return head
            }
        }
        throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' could not be registered; try again")
    }

    /// A call on the shared connection (`PostgresConnector.run`) that notices the fleet
    /// tables are gone (dropped by hand, a restore that failed half-way): the tables and every
    /// suite's channel are then forgotten, so that the next ``prepare(suite:)`` makes them again.
    private func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(FleetError) -> T {
        try await connector.run { [self] connection in
            do {
                return try await body(connection)
            } catch {
                if PostgresFailure.isMissingTable(error) { forgetTables() }
                throw error
            }
        }
    }

    private func forgetTables() {
        tablesReady.store(false, ordering: .releasing)
        channels.withLock { $0 = [:] }
    }

    /// The lock time-out a write gives the server: three quarters of the call's deadline, so
    /// that the server cancels a write stuck behind a lock (and says so) before the caller
    /// stops waiting for its answer.
    var lockTimeoutMilliseconds: Int64 {
        Int64(PostgresConnector.nanoseconds(configuration.callTimeout) / 1_000_000) * 3 / 4
    }

    /// The conditional upsert (`PostgresFleetSQL`), prepared once per connection: one round
    /// trip, whose one row says who holds the key afterwards. A write whose own stamp is there
    /// (this one, or a retry after a lost answer) is reported as applied; another stamp
    /// superseded it.
    ///
    /// What a failure means: the server's own answer (an error, a lock it stopped waiting for)
    /// and a connection that could not be opened are ``FleetError/engineUnavailable(endpoint:reason:)``
    /// — nothing was written; a write that was sent and whose answer never came (a connection
    /// lost, the deadline) is ``FleetError/writeUnconfirmed(key:endpoint:reason:)``. When the
    /// suite's row or the tables are gone, they are made again and the write is sent once more.
    public func write(_ change: FleetChange, suite: String) async throws(FleetError) -> FleetWriteDecision {
        let text: String?
        do {
            text = try change.value.map { try JSONWriter.string($0, pretty: false) }
        } catch {
            throw .invalidValue(key: change.key, reason: "\(error)")
        }
        if let problem = FleetSuite.problem(withKey: change.key) { throw .invalidValue(key: change.key, reason: problem) }
        for attempt in 1...2 {
            if channels.withLock({ $0[suite] }) == nil { _ = try await prepare(suite: suite) }
            do {
                return try await writeOnce(change, text: text, suite: suite)
            } catch .engineUnavailable(let endpoint, let reason) where attempt == 1 && channels.withLock({ $0[suite] }) == nil {
                // The suite's row or the tables were gone (forgotten above): register again.
                logger.info("the fleet suite was not registered in the engine; registering it again", metadata: ["suite": "\(suite)", "reason": "\(reason)", "endpoint": "\(endpoint)"])
            }
        }
        throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' could not be registered; try again")
    }

    private func writeOnce(_ change: FleetChange, text: String?, suite: String) async throws(FleetError) -> FleetWriteDecision {
        let stamp = change.stamp
        let statement = PostgresFleetSQL.Write(
            suite: suite, key: change.key, value: text, stamp: (stamp.milliseconds, Int64(stamp.counter), stamp.origin),
            lockTimeoutMilliseconds: lockTimeoutMilliseconds, maximumOffsetMilliseconds: Self.maximumOffsetMilliseconds)
        // Attempts sent whose outcome is unknown: each attempt counts until the server answers
        // it with an error (then it did not take effect). The connector tries once more on a new
        // connection when a reused one turns out dead, so there can be two.
        let inDoubt = DoubtCount()
        let held: PostgresFleetSQL.Write.Row?
        do {
            held = try await run { [connector] connection in
                inDoubt.add(1)
                do {
                    var held: PostgresFleetSQL.Write.Row?
                    for try await row in try await connection.execute(statement, logger: self.logger) { held = row }
                    return held
                } catch {
                    if PostgresFailure.isServerAnswer(error) {
                        inDoubt.add(-1)
                        // postgres-nio keeps a statement whose preparation failed (the tables
                        // missing, a permission) failed for the connection's life: a new
                        // connection prepares it again. Errors of an execution keep it.
                        if !PostgresFailure.isExecutionOnly(error) { connector.drop(connection) }
                    }
                    throw error
                }
            }
        } catch {
            if case .engineUnavailable(let endpoint, let reason) = error, inDoubt.count > 0 {
                throw .writeUnconfirmed(key: change.key, endpoint: endpoint, reason: reason)
            }
            throw error
        }
        switch held {
        case nil, .unregistered?:
            // The suite's row is gone (removed by hand): nothing was written; register it again.
            channels.withLock { _ = $0.removeValue(forKey: suite) }
            throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' was not registered in the engine; nothing was written")
        case .refused(let ahead)?:
            let refusal = ClockOffsetRefusal(stamp: stamp, aheadMilliseconds: ahead, maximumOffset: Self.maximumOffset)
            throw .engineRefused(
                endpoint: endpointDescription,
                reason: "the write of '\(change.key)' was refused by the engine: " + refusal.description.replacingOccurrences(of: "this machine's clock", with: "the engine's clock")
                    + "; the host '\(stamp.origin)' has a clock that is wrong, and nothing was written")
        case .written(let revision, let held)?:
            let holder = ChangeStamp(milliseconds: held.milliseconds, counter: UInt32(clamping: held.counter), origin: held.origin)
            return holder == stamp ? .applied(revision: revision) : .superseded(by: holder)
        }
    }

    /// The most a stamp may be ahead of the engine's clock: the fleet's maximum clock offset,
    /// the same as a host's (``RizqCore/HybridLogicalClock/defaultMaximumOffset``).
    static let maximumOffset = HybridLogicalClock.defaultMaximumOffset
    static var maximumOffsetMilliseconds: Int64 { HybridLogicalClock.milliseconds(maximumOffset) }

    /// One read: the head and up to `limit` rows above `revision` (the suite is registered
    /// first when this process has not yet, and again when its row or the tables are gone).
    /// A row whose value is not JSON is returned in ``FleetChangeBatch/unreadable``.
    public func changes(suite: String, after revision: Int64, limit: Int) async throws(FleetError) -> FleetChangeBatch {
        for attempt in 1...2 {
            if channels.withLock({ $0[suite] }) == nil { _ = try await prepare(suite: suite) }
            do {
                return try await changesOnce(suite: suite, after: revision, limit: limit)
            } catch .engineUnavailable(let endpoint, let reason) where attempt == 1 && channels.withLock({ $0[suite] }) == nil {
                logger.info("the fleet suite was not registered in the engine; registering it again", metadata: ["suite": "\(suite)", "reason": "\(reason)", "endpoint": "\(endpoint)"])
            }
        }
        throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' is not registered in the engine")
    }

    private func changesOnce(suite: String, after revision: Int64, limit: Int) async throws(FleetError) -> FleetChangeBatch {
        let query = PostgresFleetSQL.changes(suite, after: revision, limit: limit)
        typealias Row = (head: FleetSuiteHead, entry: (key: String, value: String?, stamp: ChangeStamp, revision: Int64)?)
        let rows: [Row] = try await run { connection in
            var collected: [Row] = []
            for try await row in try await connection.query(query, logger: self.logger) {
                let cells = row.makeRandomAccess()
                let head = FleetSuiteHead(epoch: try cells[0].decode(String.self), revision: try cells[1].decode(Int64.self), purgedThrough: try cells[2].decode(Int64.self))
                guard let key = try cells[3].decode(String?.self) else {
                    collected.append((head, nil))
                    continue
                }
                let stamp = ChangeStamp(
                    milliseconds: try cells[5].decode(Int64.self), counter: UInt32(clamping: try cells[6].decode(Int64.self)),
                    origin: try cells[7].decode(String.self))
                collected.append((head, (key, try cells[4].decode(String?.self), stamp, try cells[8].decode(Int64.self))))
            }
            return collected
        }
        guard let head = rows.first?.head else {
            // The suite's row is gone (removed by hand): forgotten, so that the next call
            // registers it again.
            channels.withLock { _ = $0.removeValue(forKey: suite) }
            throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' is not registered in the engine")
        }
        var entries: [FleetEntry] = []
        var unreadable: [FleetUnreadableRow] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            guard let entry = row.entry else { continue }
            var value: PrefValue?
            if let text = entry.value {
                do {
                    value = try JSONReader.parse(text)
                } catch {
                    // A row written by hand that is not JSON: skipped, never guessed at, and
                    // reported to the reader (which says so once, and reads on past it).
                    unreadable.append(FleetUnreadableRow(key: entry.key, revision: entry.revision, reason: "its value is not JSON (\(error.reason))"))
                    continue
                }
            }
            entries.append(FleetEntry(change: FleetChange(key: entry.key, value: value, stamp: entry.stamp), revision: entry.revision))
        }
        return FleetChangeBatch(entries: entries, head: head, hasMore: rows.count >= limit && rows.last?.entry != nil, unreadable: unreadable)
    }

    /// `LISTEN` on the suite's channel over a connection of its own, until cancelled (then it
    /// returns) or lost (then it throws, within about two call deadlines of the loss).
    ///
    /// Nothing here waits on postgres-nio's `listen` itself: a listener whose connection the
    /// server closed (a restart) could wait for ever, deaf to cancellation, and a task group
    /// waiting for it would never end — the watcher then sat with no socket, its status still
    /// live. So the `LISTEN`, and a heartbeat, each run in a task of their own and report to one
    /// stream of events, which this call reads; it ends at the first loss, closes the
    /// connection, and leaves whatever postgres-nio still holds to end when it can.
    ///
    /// The heartbeat: the `LISTEN` must be confirmed within the call deadline; then, every
    /// call deadline, the suite's channel number is read on the same connection, within a call
    /// deadline. It fails when the server is gone without a word (a cut network), and when the
    /// suite was registered again under another number (its tables dropped and made again, its
    /// row removed), where this channel would never hear of a change again.
    public func listen(
        suite: String,
        onReady: @escaping @Sendable () async -> Void,
        onNotify: @escaping @Sendable (FleetNotice) async -> Void
    ) async throws(FleetError) {
        var channel = channels.withLock { $0[suite] }
        if channel == nil {
            _ = try await prepare(suite: suite)
            channel = channels.withLock { $0[suite] }
        }
        guard let channel else { throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' has no channel") }
        let connection = try await connector.openDedicated()
        let callTimeout = configuration.callTimeout
        let logger = logger
        let listening = Flag()
        let (events, continuation) = AsyncStream<ListenEvent>.makeStream(bufferingPolicy: .unbounded)
        let listener = Task.detached {
            do {
                try await connection.listen(on: "rizq_fleet_\(channel)") { notifications in
                    listening.set()
                    continuation.yield(.ready)
                    for try await notification in notifications {
                        continuation.yield(.notice(Self.notice(notification.payload)))
                    }
                }
                continuation.yield(.lost(ListenLost.ended))
            } catch {
                continuation.yield(.lost(error))
            }
        }
        let heartbeat = Task.detached {
            do {
                try await Task.sleep(for: callTimeout)
                guard listening.isSet else { throw DeadlineExceeded(limit: callTimeout) }
                while true {
                    try await Task.sleep(for: callTimeout)
                    if connection.isClosed { throw ListenLost.closed }
                    let current = try await Deadline.run(callTimeout, onTimeout: { PostgresConnector.close(connection) }) { () async throws -> Int64? in
                        var id: Int64?
                        for try await row in try await connection.query(PostgresFleetSQL.channel(suite), logger: logger) {
                            id = try row.makeRandomAccess()[0].decode(Int64.self)
                        }
                        return id
                    }
                    guard current == channel else { throw ListenLost.channelMoved }
                }
            } catch is CancellationError {
                return
            } catch {
                continuation.yield(.lost(error))
            }
        }
        defer {
            listener.cancel()
            heartbeat.cancel()
            continuation.finish()
            PostgresConnector.close(connection)
        }
        // Ends (nil) when this task is cancelled.
        for await event in events {
            switch event {
            case .ready:
                await onReady()
            case .notice(let notice):
                await onNotify(notice)
            case .lost(let error):
                if Task.isCancelled { return }
                if PostgresFailure.isMissingTable(error) { forgetTables() }
                if let lost = error as? ListenLost {
                    if lost == .channelMoved { channels.withLock { _ = $0.removeValue(forKey: suite) } }
                    throw .engineUnavailable(endpoint: endpointDescription, reason: lost.reason)
                }
                throw PostgresFailure.fleetError(error, endpoint: endpointDescription)
            }
        }
    }

    /// A notification's payload: the write as `PostgresFleetSQL.Write` builds it, or a bare
    /// revision; anything else is a notice without a revision (the listener catches up).
    static func notice(_ payload: String) -> FleetNotice {
        if let revision = Int64(payload) { return FleetNotice(revision: revision) }
        guard case .dictionary(let fields)? = try? JSONReader.parse(payload),
            case .int(let revision)? = fields["r"], case .string(let key)? = fields["k"],
            case .int(let milliseconds)? = fields["m"], case .int(let counter)? = fields["c"], case .string(let origin)? = fields["o"]
        else { return FleetNotice(revision: nil) }
        var value: PrefValue?
        switch fields["v"] {
        case .string(let text)?:
            guard let parsed = try? JSONReader.parse(text) else { return FleetNotice(revision: Int64(revision)) }
            value = parsed
        case .null?, nil:
            value = nil
        default:
            return FleetNotice(revision: Int64(revision))
        }
        let stamp = ChangeStamp(milliseconds: Int64(milliseconds), counter: UInt32(clamping: counter), origin: origin)
        return FleetNotice(revision: Int64(revision), entry: FleetEntry(change: FleetChange(key: key, value: value, stamp: stamp), revision: Int64(revision)))
    }

    /// Deletes old tombstones (`PostgresFleetSQL.purgeTombstones`).
    public func purgeTombstones(suite: String, olderThan age: Duration) async throws(FleetError) -> Int {
        let components = age.components
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        let query = PostgresFleetSQL.purgeTombstones(suite, olderThanSeconds: seconds)
        return try await connector.run { connection in
            for try await row in try await connection.query(query, logger: self.logger) {
                return Int(try row.makeRandomAccess()[0].decode(Int64.self))
            }
            return 0
        }
    }

    /// Closes the connection for calls (a running `listen` ends with its task).
    public func shutdown() async {
        await connector.shutdown()
    }
}

/// How many attempts of one write were sent and never answered (shared with the closure that
/// sends them).
private final class DoubtCount: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .acquiring) }

    func add(_ delta: Int) {
        value.wrappingAdd(delta, ordering: .acquiringAndReleasing)
    }
}

/// What the listening connection reports to ``PostgresFleetEngine/listen(suite:onReady:onNotify:)``.
private enum ListenEvent: Sendable {
    /// The `LISTEN` is in force.
    case ready
    /// A notification.
    case notice(FleetNotice)
    /// The connection, the `LISTEN` or the heartbeat failed: listening is over.
    case lost(any Error)
}

/// Why listening ended, when postgres-nio gave no error of its own.
private enum ListenLost: Error, Equatable {
    /// The notifications ended without an error: the server closed the stream.
    case ended
    /// postgres-nio reports the connection closed.
    case closed
    /// The suite is registered under another channel number, or not at all.
    case channelMoved

    var reason: String {
        switch self {
        case .ended: return "the server ended the notifications"
        case .closed: return "the listening connection was closed"
        case .channelMoved: return "the suite was registered again (its tables dropped and made again, or its row removed); listening again on its new channel"
        }
    }
}
#endif
