#if Secrets
import Foundation
import RizqCore

/// A password for a place on the network — what git's credential helpers and docker's keep:
/// the protocol, the host and port, a path, the user name, the password, and the expiry and
/// OAuth refresh token git 2.41 added (`password_expiry_utc`, `oauth_refresh_token`).
///
/// The same type is a query: a field left `nil` matches any value (``matches(_:)``), as git's
/// own matching of a request against a stored credential does.
public struct NetworkCredential: Sendable, Equatable {
    /// The protocol (`https`, `http`, `smtp`, `cert`, …). Lowercased.
    public var `protocol`: String
    /// The host name, without the port.
    public var host: String?
    /// The port, when the URL gave one.
    public var port: UInt16?
    /// The path (git sends it when `credential.useHttpPath` is set, and for `cert`).
    public var path: String?
    /// The user name.
    public var username: String?
    /// The password (or token).
    public var password: String?
    /// When the password stops working (git's `password_expiry_utc`, whole seconds). An expired
    /// credential is never served.
    public var expiry: Date?
    /// The OAuth refresh token that can get a new password once this one expires.
    public var oauthRefreshToken: String?

    /// A credential (or a query) from its parts.
    public init(
        protocol: String, host: String? = nil, port: UInt16? = nil, path: String? = nil, username: String? = nil,
        password: String? = nil, expiry: Date? = nil, oauthRefreshToken: String? = nil
    ) {
        self.protocol = `protocol`.lowercased()
        self.host = host
        self.port = port
        self.path = path
        self.username = username
        self.password = password
        self.expiry = expiry
        self.oauthRefreshToken = oauthRefreshToken
    }

    /// Whether this credential, read as a query, matches `stored`: the same protocol and port
    /// (none is a port of its own: `host:8443` is another place than `host`, as git's own
    /// matching has it), and the same host, path and user name wherever this one gives them.
    public func matches(_ stored: NetworkCredential) -> Bool {
        `protocol` == stored.protocol && port == stored.port && (host == nil || host == stored.host)
            && (path == nil || path == stored.path) && (username == nil || username == stored.username)
    }

    /// Whether it has expired at `now` (one without an expiry never does).
    public func isExpired(at now: Date) -> Bool {
        guard let expiry else { return false }
        return expiry <= now
    }

    /// `PROTOCOL://HOST[:PORT]/PATH`, without the user: git-credential-libsecret's label and the
    /// place in messages.
    public var place: String {
        "\(`protocol`)://\(host ?? "")\(port.map { ":\($0)" } ?? "")/\(path ?? "")"
    }

    // MARK: The stored secret

    /// The secret as git-credential-libsecret (git 2.44 and later) keeps it: the password, then
    /// a line `password_expiry_utc=SECONDS` and a line `oauth_refresh_token=TOKEN` when there
    /// are. git 2.39's helper reads back the password it wrote (one line), unchanged.
    public var storedSecret: String {
        var text = password ?? ""
        if let expiry { text += "\npassword_expiry_utc=\(Int64(expiry.timeIntervalSince1970.rounded(.down)))" }
        if let oauthRefreshToken { text += "\noauth_refresh_token=\(oauthRefreshToken)" }
        return text
    }

    /// This credential with the password, expiry and refresh token read from `secret` (the
    /// format of ``storedSecret``; lines it does not know are left alone, as git's helper does).
    public func reading(storedSecret secret: String) -> NetworkCredential {
        var credential = self
        let lines = secret.split(separator: "\n", omittingEmptySubsequences: false)
        credential.password = lines.first.map(String.init) ?? ""
        credential.expiry = nil
        credential.oauthRefreshToken = nil
        for line in lines.dropFirst() {
            if let seconds = line.value(after: "password_expiry_utc="), let value = Int64(seconds) {
                credential.expiry = Date(timeIntervalSince1970: TimeInterval(value))
            } else if let token = line.value(after: "oauth_refresh_token=") {
                credential.oauthRefreshToken = String(token)
            }
        }
        return credential
    }

    // MARK: Parsing

    /// `host[:port]` (`[v6]:port` too) split into the host and the port; `nil` when the text
    /// after the last colon is not a port from 1 to 65535. The one reading of a host and port,
    /// for git's `host=` lines and the chain's account names.
    package static func hostAndPort(_ text: Substring) -> (host: String, port: UInt16?)? {
        let afterBracket = text.lastIndex(of: "]").map { text.index(after: $0) } ?? text.startIndex
        guard let colon = text[afterBracket...].lastIndex(of: ":") else { return (String(text), nil) }
        guard let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        return (String(text[..<colon]), port)
    }

    /// The place a URL names — scheme, host, port, path (without its leading `/`) — with the
    /// URL's user name and password when `keepingUserInfo`; `nil` when it has no scheme or a
    /// port out of range. The one reading of a URL into a credential, for git's `url=` lines and
    /// credential-store's file.
    package init?(url: URLComponents, keepingUserInfo: Bool) {
        guard let scheme = url.scheme else { return nil }
        var port: UInt16?
        if let number = url.port {
            guard let valid = UInt16(exactly: number), valid > 0 else { return nil }
            port = valid
        }
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        self.init(
            protocol: scheme, host: url.host, port: port, path: path.isEmpty ? nil : path,
            username: keepingUserInfo ? url.user : nil, password: keepingUserInfo ? url.password : nil)
    }

    // MARK: Checks

    /// Why this credential cannot be stored, or `nil`: it needs a protocol, a host or a path, a
    /// user name and a password, and no value may hold a line break or a NUL byte (the stored
    /// secret is line-based).
    public var problemStoring: String? {
        if `protocol`.isEmpty { return "it has no protocol" }
        if (host ?? "").isEmpty && (path ?? "").isEmpty { return "it has neither a host nor a path" }
        if username == nil { return "it has no user name" }
        if password == nil { return "it has no password" }
        let values: [(String, String?)] = [
            ("protocol", `protocol`), ("host", host), ("path", path), ("username", username), ("password", password),
            ("oauth_refresh_token", oauthRefreshToken),
        ]
        for (name, value) in values {
            if let value, value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) {
                return "its \(name) holds a line break or a NUL byte"
            }
        }
        return nil
    }
}

extension Substring {
    /// The rest of the line after `prefix`, when it starts with it.
    fileprivate func value(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
#endif
