#if Fleet
import Foundation

/// Where a ``PostgresFleetEngine`` connects, how it proves who it is, and how long it waits.
///
/// Authentication and TLS are postgres-nio's: a password (SCRAM-SHA-256, MD5 or clear text, as
/// the server asks) and TLS as libpq's `sslmode` names it. Build one from a connection URL:
///
/// ```swift
/// let configuration = try PostgresFleetConfiguration(
///     url: "postgres://app@db.internal:5432/settings?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem")
/// // the password from PGPASSWORD, never from the URL on a command line
/// ```
public struct PostgresFleetConfiguration: Sendable {
    /// How the connection uses TLS: libpq's `sslmode` values.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP only.
        case disable
        /// TLS when the server offers it, else plain TCP; the certificate is not checked
        /// (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is not checked (unless a root certificate is
        /// given: then as ``verifyCA``, as libpq does).
        case require
        /// TLS, and a certificate signed by the root certificate (or the system's roots).
        case verifyCA = "verify-ca"
        /// TLS, a trusted certificate, and the host name (or IP address) in it.
        case verifyFull = "verify-full"
    }

    /// The server's host name or IP address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The role to log in as.
    public var username: String
    /// The role's password, if the server asks for one. Never printed.
    public var password: String?
    /// The database holding the fleet tables.
    public var database: String
    /// TLS: see ``TLSMode``.
    public var tls: TLSMode
    /// A PEM file of the certificate authorities to trust (libpq's `sslrootcert`); `nil`: the
    /// system's.
    public var rootCertificatePath: String?
    /// How long opening a connection (TCP, TLS, authentication) may take.
    public var connectTimeout: Duration
    /// How long any one call (a write, a catch-up read, setting up the tables) may take before
    /// it fails with ``FleetError/engineUnavailable(endpoint:reason:)``.
    public var callTimeout: Duration
    /// Whether the password may go out in clear text or as MD5 when the server asks so over a
    /// connection whose server is not verified (``serverIsVerified``): named by libpq's
    /// `require_auth=password` (or `md5`) in the URL or `PGREQUIREAUTH`. By default it never does:
    /// such a connection is closed before the password is sent, and only SCRAM-SHA-256 (which
    /// never shows the password) goes ahead.
    public var allowsPasswordInClear: Bool = false

    /// Whether the server's certificate is checked: `verify-ca`, `verify-full`, or `require`
    /// with a root certificate.
    public var serverIsVerified: Bool {
        switch tls {
        case .verifyCA, .verifyFull: return true
        case .require: return rootCertificatePath != nil
        case .disable, .prefer: return false
        }
    }

    /// A configuration with these parts.
    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer, rootCertificatePath: String? = nil,
        connectTimeout: Duration = .seconds(5), callTimeout: Duration = .seconds(5)
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
        self.connectTimeout = connectTimeout
        self.callTimeout = callTimeout
    }

    /// `host:port/database`: what messages and logs name (never the password).
    public var endpointDescription: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(shownHost):\(port)/\(database)"
    }

    /// The query parameters ``init(url:environment:)`` understands.
    public static let urlParameters = ["sslmode", "sslrootcert", "connect_timeout", "application_name", "require_auth"]

    /// Reads a libpq-style URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=…&connect_timeout=SECONDS]`
    /// (also `postgresql://`). What the URL leaves out comes from the environment as libpq
    /// takes it: `PGPASSWORD`, `PGUSER`, `PGSSLMODE`, `PGSSLROOTCERT`; the database defaults
    /// to the user's name.
    /// - Throws: ``FleetError/invalidEngine(reason:)`` naming what is wrong.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FleetError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidEngine(reason: "'\(Self.redacted(text))' is not a URL; write postgres://USER@HOST:PORT/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidEngine(reason: "the engine URL's scheme is '\(scheme)'; only postgres:// (or postgresql://) is supported")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidEngine(reason: "the engine URL names no host; write postgres://USER@HOST:PORT/DATABASE")
        }
        let username = components.user.flatMap { $0.removingPercentEncoding ?? $0 } ?? environment["PGUSER"] ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        var database = String(components.path.drop { $0 == "/" })
        database = database.removingPercentEncoding ?? database
        if database.isEmpty { database = username }
        var tls = TLSMode.prefer
        if let mode = environment["PGSSLMODE"], !mode.isEmpty {
            guard let parsed = TLSMode(rawValue: mode) else {
                throw .invalidEngine(reason: "PGSSLMODE '\(mode)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tls = parsed
        }
        var rootCertificate = environment["PGSSLROOTCERT"].flatMap { $0.isEmpty ? nil : $0 }
        var connectTimeout = Duration.seconds(5)
        var requireAuth = environment["PGREQUIREAUTH"] ?? ""
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let parsed = TLSMode(rawValue: value) else {
                    throw .invalidEngine(reason: "sslmode '\(value)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = parsed
            case "sslrootcert":
                rootCertificate = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0, seconds <= 3600 else {
                    throw .invalidEngine(reason: "connect_timeout '\(value)' is not a number of seconds from 1 to 3600")
                }
                connectTimeout = .seconds(seconds)
            case "application_name":
                break  // accepted for libpq compatibility; the server sees postgres-nio's default
            case "require_auth":
                requireAuth = value
            default:
                throw .invalidEngine(reason: "the engine URL's parameter '\(item.name)' is not supported; use \(Self.urlParameters.joined(separator: ", "))")
            }
        }
        self.init(
            host: host, port: components.port ?? 5432, username: username, password: password, database: database,
            tls: tls, rootCertificatePath: rootCertificate, connectTimeout: connectTimeout)
        allowsPasswordInClear = try Self.namesPasswordInClear(requireAuth)
    }

    /// Whether libpq's `require_auth` list names `password` or `md5` (not negated).
    private static func namesPasswordInClear(_ list: String) throws(FleetError) -> Bool {
        let methods = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let known = ["password", "md5", "scram-sha-256", "gss", "sspi", "none"]
        for method in methods where !known.contains(method.hasPrefix("!") ? String(method.dropFirst()) : method) {
            throw .invalidEngine(reason: "require_auth '\(method)' is not one of \(known.joined(separator: ", ")) (a leading ! refuses one)")
        }
        return methods.contains("password") || methods.contains("md5")
    }

    /// Whether a URL carries a password (which a command line must not: `ps` shows it).
    public static func urlHasPassword(_ text: String) -> Bool {
        URLComponents(string: text)?.password.map { !$0.isEmpty } ?? false
    }

    /// The URL with its password (if any) replaced by `***`, for messages.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "(a URL)"
    }
}
#endif
