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

    /// Creates the tables if they are missing (once per process), and registers the suite.
    public func prepare(suite: String) async throws(FleetError) -> FleetSuiteHead {
        if !tablesReady.load(ordering: .acquiring) {
            let exists = try await connector.run { connection in
                let rows = try await connection.query(PostgresFleetSQL.tablesExist, logger: self.logger)
                for try await row in rows { return try row.makeRandomAccess()[0].decode(Bool.self) }
                return false
            }
            if !exists {
                _ = try await connector.run { connection in
                    try await connection.query(PostgresFleetSQL.createTables, logger: self.logger)
                }
                logger.info("created the fleet tables", metadata: ["endpoint": "\(endpointDescription)"])
            }
            tablesReady.store(true, ordering: .releasing)
        }
        for _ in 0..<3 {
            let registered: (Int64, FleetSuiteHead)? = try await connector.run { connection in
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

    /// The conditional upsert (``PostgresFleetSQL``), then, when it wrote nothing, who holds
    /// the key. A write whose own stamp is already there (a retry after a lost answer) is
    /// reported as applied.
    public func write(_ change: FleetChange, suite: String) async throws(FleetError) -> FleetWriteDecision {
        let text: String?
        do {
            text = try change.value.map { try JSONWriter.string($0, pretty: false) }
        } catch {
            throw .invalidValue(key: change.key, reason: "\(error)")
        }
        if channels.withLock({ $0[suite] }) == nil { _ = try await prepare(suite: suite) }
        let stamp = change.stamp
        let query = PostgresFleetSQL.write(suite, key: change.key, value: text, stamp: (stamp.milliseconds, Int64(stamp.counter), stamp.origin))
        let current = PostgresFleetSQL.currentStamp(suite, key: change.key)
        enum Outcome: Sendable {
            case applied(Int64)
            case holder(ChangeStamp, Int64)
            case noRow
        }
        let outcome: Outcome = try await connector.run { connection in
            let rows = try await connection.query(query, logger: self.logger)
            for try await row in rows { return .applied(try row.makeRandomAccess()[0].decode(Int64.self)) }
            let holders = try await connection.query(current, logger: self.logger)
            for try await row in holders {
                let cells = row.makeRandomAccess()
                let counter = try cells[1].decode(Int64.self)
                return .holder(
                    ChangeStamp(milliseconds: try cells[0].decode(Int64.self), counter: UInt32(clamping: counter), origin: try cells[2].decode(String.self)),
                    try cells[3].decode(Int64.self))
            }
            return .noRow
        }
        switch outcome {
        case .applied(let revision):
            return .applied(revision: revision)
        case .holder(let holder, let revision):
            return holder == stamp ? .applied(revision: revision) : .superseded(by: holder)
        case .noRow:
            // The suite's row is gone (dropped by hand): register it again, once.
            channels.withLock { _ = $0.removeValue(forKey: suite) }
            throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' was not registered in the engine; it is now: write again")
        }
    }

    /// One read: the head and up to `limit` rows above `revision`.
    public func changes(suite: String, after revision: Int64, limit: Int) async throws(FleetError) -> FleetChangeBatch {
        let query = PostgresFleetSQL.changes(suite, after: revision, limit: limit)
        typealias Row = (head: FleetSuiteHead, entry: (key: String, value: String?, stamp: ChangeStamp, revision: Int64)?)
        let rows: [Row] = try await connector.run { connection in
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
            throw .engineUnavailable(endpoint: endpointDescription, reason: "the suite '\(suite)' is not registered in the engine")
        }
        var entries: [FleetEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            guard let entry = row.entry else { continue }
            var value: PrefValue?
            if let text = entry.value {
                do {
                    value = try JSONReader.parse(text)
                } catch {
                    // A row written by hand that is not JSON: skipped, never guessed at.
                    logger.error("a fleet row is not JSON; it is skipped", metadata: ["suite": "\(suite)", "key": "\(entry.key)", "revision": "\(entry.revision)"])
                    continue
                }
            }
            entries.append(FleetEntry(change: FleetChange(key: entry.key, value: value, stamp: entry.stamp), revision: entry.revision))
        }
        return FleetChangeBatch(entries: entries, head: head, hasMore: rows.count >= limit && rows.last?.entry != nil)
    }

    /// `LISTEN` on the suite's channel over a connection of its own, until cancelled or lost.
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
        defer { PostgresConnector.close(connection) }
        let callTimeout = configuration.callTimeout
        let logger = logger
        let listening = Flag()
        do {
            let (stream, continuation) = AsyncStream<FleetNotice?>.makeStream(bufferingPolicy: .unbounded)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { continuation.finish() }
                    try await connection.listen(on: "rizq_fleet_\(channel)") { notifications in
                        listening.set()
                        continuation.yield(nil)
                        for try await notification in notifications {
                            continuation.yield(Self.notice(notification.payload))
                        }
                    }
                    throw ListenEnded()
                }
                group.addTask {
                    for await notice in stream {
                        if let notice {
                            await onNotify(notice)
                        } else {
                            await onReady()
                        }
                    }
                }
                // The LISTEN within the call deadline, then a heartbeat on the same connection:
                // a server that vanished without closing the connection (a cut network) is
                // noticed within two deadlines, not never.
                group.addTask {
                    try await Task.sleep(for: callTimeout)
                    guard listening.isSet else { throw DeadlineExceeded(limit: callTimeout) }
                    while true {
                        try await Task.sleep(for: callTimeout * 2)
                        _ = try await Deadline.run(callTimeout, onTimeout: { PostgresConnector.close(connection) }) {
                            try await connection.query("SELECT 1", logger: logger)
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            if error is ListenEnded { throw .engineUnavailable(endpoint: endpointDescription, reason: "the server ended the notifications") }
            throw PostgresFailure.fleetError(error, endpoint: endpointDescription)
        }
    }

    /// A notification's payload: the write as `PostgresFleetSQL.write` builds it, or a bare
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

    /// Deletes old tombstones (``PostgresFleetSQL/purgeTombstones(_:olderThanSeconds:)``).
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

/// The notifications ended without an error: the server closed the stream.
private struct ListenEnded: Error {}
