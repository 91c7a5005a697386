#if Fleet
import NIOCore
import NIOSSL
import PostgresNIO

/// What a postgres-nio error means for a fleet suite: the engine is away (try again later, or
/// queue), or it refused (fix something first).
///
/// postgres-nio's own `description` is deliberately vague ("to prevent accidental leakage of
/// sensitive data"); the reason built here names the code, the SQLSTATE and the server's
/// message, which never holds a value: fleet values travel as bound parameters.
enum PostgresFailure {
    static func fleetError(_ error: any Error, endpoint: String) -> FleetError {
        if let failure = error as? FleetError { return failure }
        if let exceeded = error as? DeadlineExceeded {
            return .engineUnavailable(endpoint: endpoint, reason: "no answer within \(seconds(exceeded.limit))")
        }
        if let psql = error as? PSQLError {
            return fleetError(psql, endpoint: endpoint)
        }
        if let ssl = error as? NIOSSLError {
            return .engineRefused(endpoint: endpoint, reason: "TLS failed: \(ssl)")
        }
        if error is CancellationError {
            return .engineUnavailable(endpoint: endpoint, reason: "the call was cancelled")
        }
        if let channel = error as? ChannelError {
            return .engineUnavailable(endpoint: endpoint, reason: "\(channel)")
        }
        // NIO's connect errors (connection refused, host unreachable) and the like.
        return .engineUnavailable(endpoint: endpoint, reason: "\(error)")
    }

    private static func fleetError(_ error: PSQLError, endpoint: String) -> FleetError {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? "?????"
            let message = error.serverInfo?[.message] ?? "no message"
            let reason = "SQLSTATE \(state): \(message)"
            switch state {
            case "55P03":
                // lock_timeout, which every write sets below its deadline: the server cancelled
                // the statement and rolled it back.
                return .engineUnavailable(endpoint: endpoint, reason: "the server stopped waiting for a lock another transaction holds on the suite (\(reason)); nothing of this call took effect: find the session holding it (pg_stat_activity, pg_blocking_pids) or try again later")
            case "57014":
                return .engineUnavailable(endpoint: endpoint, reason: "the server cancelled the statement (\(reason)); nothing of this call took effect")
            case "42P01":
                // The fleet tables were dropped: the next call makes them again.
                return .engineUnavailable(endpoint: endpoint, reason: "the fleet tables are missing (\(reason)); they are made again at the next call")
            default:
                break
            }
            // Class 08 (connection exception), 57P (operator intervention: shutdown, crash,
            // cannot connect now), 53 (insufficient resources: too many connections), 40001 /
            // 40P01 (serialization failure, deadlock): the engine is there but cannot serve
            // now (as are 55P03 and 57014, a time-out the server applied, and 42P01, tables
            // dropped, above); anything else (28 authentication, 42 permission or syntax, 3D000
            // no such database) needs a person.
            if state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "40001" || state == "40P01" {
                return .engineUnavailable(endpoint: endpoint, reason: reason)
            }
            return .engineRefused(endpoint: endpoint, reason: reason)
        case .sslUnsupported:
            return .engineRefused(endpoint: endpoint, reason: "the server does not offer TLS, and the configuration requires it")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return .engineRefused(endpoint: endpoint, reason: "TLS could not be set up (\(error.code))")
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return .engineRefused(endpoint: endpoint, reason: "authentication failed (\(error.code)); give the role's password (PGPASSWORD)")
        case .connectionError:
            if let underlying = error.underlying {
                if underlying is NIOSSLError || String(describing: underlying).contains("SSL") {
                    return .engineRefused(endpoint: endpoint, reason: "TLS failed: \(underlying)")
                }
                return .engineUnavailable(endpoint: endpoint, reason: "cannot connect: \(underlying)")
            }
            return .engineUnavailable(endpoint: endpoint, reason: "cannot connect")
        default:
            // serverClosedConnection, clientClosedConnection, uncleanShutdown, queryCancelled,
            // listenFailed, messageDecodingFailure: the connection is gone.
            return .engineUnavailable(endpoint: endpoint, reason: "\(error.code)")
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension PostgresFailure {
    /// Whether the server answered `error` itself (an error response to the statement): the
    /// statement then did not take effect. Anything else — a connection lost, a deadline — leaves
    /// a statement already sent in doubt.
    static func isServerAnswer(_ error: any Error) -> Bool {
        (error as? PSQLError)?.code == .server
    }

    /// Whether `error` is one the server gives only while executing a statement, never while
    /// preparing it: a lock it stopped waiting for (55P03), a cancelled statement (57014), a
    /// serialization failure or deadlock (40001, 40P01).
    static func isExecutionOnly(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError, psql.code == .server else { return false }
        return ["55P03", "57014", "40001", "40P01"].contains(psql.serverInfo?[.sqlState] ?? "")
    }

    /// Whether `error` is the server's "undefined table" (SQLSTATE 42P01): the fleet tables are gone.
    static func isMissingTable(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError, psql.code == .server else { return false }
        return psql.serverInfo?[.sqlState] == "42P01"
    }
}
#endif
