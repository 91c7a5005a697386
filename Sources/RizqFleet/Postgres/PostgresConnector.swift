#if Fleet
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// One PostgreSQL connection, opened when first needed, opened again after it is lost, with a
/// deadline on every call.
///
/// Not postgres-nio's `PostgresClient` pool: while the server is down its first query waits
/// 67 s for the pool's circuit breaker, and after a restart it stays unusable for 16 s (the
/// harness notes). A fleet suite wants "unavailable" at once and the connection back as soon
/// as the server is. A connection postgres-nio reports closed is never used again (a query
/// started on one can hang for ever).
final class PostgresConnector: Sendable {
    let endpoint: String
    private let configuration: PostgresConnection.Configuration
    private let connectTimeout: Duration
    private let callTimeout: Duration
    private let logger: Logger
    private let state = Mutex<State>(State())
    private static let ids = Atomic<Int>(0)

    private struct State {
        var connection: PostgresConnection?
        var connecting: Task<PostgresConnection, any Error>?
        var isShutDown = false
    }

    init(configuration: PostgresFleetConfiguration, logger: Logger) throws(FleetError) {
        self.endpoint = configuration.endpointDescription
        self.connectTimeout = configuration.connectTimeout
        self.callTimeout = configuration.callTimeout
        self.logger = logger
        var postgres = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database,
            tls: try Self.tls(configuration))
        postgres.options.connectTimeout = .nanoseconds(Int64(Self.nanoseconds(configuration.connectTimeout)))
        self.configuration = postgres
    }

    /// postgres-nio's TLS setting for libpq's `sslmode`.
    private static func tls(_ configuration: PostgresFleetConfiguration) throws(FleetError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let root = configuration.rootCertificatePath { tls.trustRoots = .file(root) }
        switch configuration.tls {
        case .disable:
            return .disable
        case .prefer:
            tls.certificateVerification = .none
        case .require:
            tls.certificateVerification = configuration.rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .invalidEngine(reason: "cannot set up TLS (\(error)); check sslrootcert (\(configuration.rootCertificatePath ?? "the system's roots"))")
        }
        return configuration.tls == .prefer ? .prefer(context) : .require(context)
    }

    /// Runs `body` on the connection within the call deadline. A connection that fails is
    /// dropped (the next call opens another); a call on a connection that was reused and
    /// turned out dead is tried once more on a new one, which is safe for every call this
    /// package makes (reads, and writes that a stamp makes idempotent).
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(FleetError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            let (connection, reused) = try await connection()
            do {
                return try await Deadline.run(callTimeout, onTimeout: { [self] in drop(connection) }) {
                    try await body(connection)
                }
            } catch {
                let failure = PostgresFailure.fleetError(error, endpoint: endpoint)
                if failure.isEngineUnavailable || connection.isClosed { drop(connection) }
                if reused, attempt == 1, failure.isEngineUnavailable, !(error is DeadlineExceeded), !Task.isCancelled {
                    logger.debug("fleet engine connection was lost; trying once on a new one", metadata: ["endpoint": "\(endpoint)"])
                    continue
                }
                throw failure
            }
        }
    }

    /// A new connection of its own (the listening one), within the connect deadline.
    func openDedicated() async throws(FleetError) -> PostgresConnection {
        do {
            return try await open()
        } catch {
            throw PostgresFailure.fleetError(error, endpoint: endpoint)
        }
    }

    /// The shared connection, and whether it was already open.
    private func connection() async throws(FleetError) -> (PostgresConnection, reused: Bool) {
        enum Next {
            case ready(PostgresConnection)
            case wait(Task<PostgresConnection, any Error>)
            case shutDown
        }
        let next: Next = state.withLock { state in
            if state.isShutDown { return .shutDown }
            if let connection = state.connection {
                if !connection.isClosed { return .ready(connection) }
                state.connection = nil
            }
            if let connecting = state.connecting { return .wait(connecting) }
            let task = Task { [self] in try await open() }
            state.connecting = task
            return .wait(task)
        }
        switch next {
        case .shutDown:
            throw .engineUnavailable(endpoint: endpoint, reason: "the engine was shut down")
        case .ready(let connection):
            return (connection, true)
        case .wait(let task):
            let result = await task.result
            let connection: PostgresConnection? = state.withLock { state in
                if state.connecting == task { state.connecting = nil }
                guard case .success(let connection) = result else { return nil }
                if state.isShutDown { return nil }
                if state.connection == nil || state.connection?.isClosed == true { state.connection = connection }
                return connection
            }
            switch result {
            case .success(let opened):
                guard let connection else {
                    Self.close(opened)
                    throw .engineUnavailable(endpoint: endpoint, reason: "the engine was shut down")
                }
                return (connection, false)
            case .failure(let error):
                throw PostgresFailure.fleetError(error, endpoint: endpoint)
            }
        }
    }

    private func open() async throws -> PostgresConnection {
        let configuration = configuration
        let logger = logger
        let id = Self.ids.wrappingAdd(1, ordering: .relaxed).newValue
        // The connect timeout covers TCP; the deadline also covers TLS and authentication.
        return try await Deadline.run(connectTimeout + .milliseconds(500)) {
            try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
    }

    /// Forgets `connection` (if it is the shared one) and closes it.
    func drop(_ connection: PostgresConnection) {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
        }
        Self.close(connection)
    }

    /// Closes `connection`, keeping it alive until it is closed (postgres-nio asserts, in debug
    /// builds, that a connection is closed before it is released).
    static func close(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    deinit {
        let (connection, connecting) = state.withLock { ($0.connection, $0.connecting) }
        connecting?.cancel()
        if let connection { Self.close(connection) }
    }

    /// Closes the connection; later calls fail at once.
    func shutdown() async {
        let (connection, connecting) = state.withLock { state in
            state.isShutDown = true
            defer {
                state.connection = nil
                state.connecting = nil
            }
            return (state.connection, state.connecting)
        }
        connecting?.cancel()
        if let connection { try? await connection.close() }
    }

    static func nanoseconds(_ duration: Duration) -> Int {
        let components = duration.components
        return Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
    }
}
#endif
