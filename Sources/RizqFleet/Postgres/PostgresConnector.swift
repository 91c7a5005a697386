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
    /// Set when the password must not go out in clear text or MD5 (``PostgresPasswordGuard``):
    /// the connection is then opened here, with the guard ahead of postgres-nio.
    private let guarded: Guarded?
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
        let tls = try Self.tls(configuration)
        var postgres = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database,
            tls: tls)
        postgres.options.connectTimeout = .nanoseconds(Int64(Self.nanoseconds(configuration.connectTimeout)))
        self.configuration = postgres
        let needsGuard = configuration.password != nil && !configuration.serverIsVerified && !configuration.allowsPasswordInClear
        guarded = needsGuard ? Guarded(host: configuration.host, port: configuration.port, tls: tls, requestsTLS: configuration.tls != .disable,
                                       username: configuration.username, password: configuration.password, database: configuration.database) : nil
    }

    /// What a guarded connection is opened with.
    private struct Guarded: Sendable {
        var host: String
        var port: Int
        var tls: PostgresConnection.Configuration.TLS
        var requestsTLS: Bool
        var username: String
        var password: String?
        var database: String
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
        if let guarded { return try await openGuarded(guarded, id: id) }
        // The connect timeout covers TCP; the deadline also covers TLS and authentication.
        return try await Deadline.run(connectTimeout + .milliseconds(500)) {
            try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
    }

    /// A connection whose server is not verified and that has a password to give: opened here,
    /// with ``PostgresPasswordGuard`` at the head of its pipeline, then handed to postgres-nio.
    private func openGuarded(_ guarded: Guarded, id: Int) async throws -> PostgresConnection {
        let logger = logger
        let endpoint = endpoint
        let finding = PostgresPasswordGuard.Finding()
        let timeout = TimeAmount.nanoseconds(Int64(Self.nanoseconds(connectTimeout)))
        return try await Deadline.run(connectTimeout + .milliseconds(500)) {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(PostgresPasswordGuard(requestsTLS: guarded.requestsTLS, finding: finding))
                    }
                }
                .connect(host: guarded.host, port: guarded.port).get()
            let configuration = PostgresConnection.Configuration(
                establishedChannel: channel, tls: guarded.tls, username: guarded.username, password: guarded.password, database: guarded.database)
            do {
                // On the channel's own event loop: postgres-nio sets the channel up there.
                return try await PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: id, logger: logger)
            } catch {
                if let method = finding.refusedMethod {
                    throw FleetError.engineRefused(
                        endpoint: endpoint,
                        reason: "the server asked for the password by \(method) over a connection whose server is not verified (sslmode \(guarded.requestsTLS ? "without a checked certificate" : "disable")): anyone on the way could have asked, so the password was not sent; use sslmode=verify-full with sslrootcert, or SCRAM-SHA-256 on the server (password_encryption = scram-sha-256), or name it with require_auth=password (or md5) in the URL")
                }
                throw error
            }
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
