#if CLI
import Foundation
import RizqSecrets

/// What git wrote on the helper's standard input: `key=value` lines up to a blank line or the
/// end, read into a ``NetworkCredential`` (git-credential(1), "Input/Output Format").
///
/// Lines it does not know (`capability[]`, `authtype`, `wwwauth[]`, `state[]`, …) are ignored, as
/// git asks of helpers; since it never answers `capability[]`, git sends it nothing that needs
/// one. What it refuses, each with a message that names it and never shows a value: more than
/// ``maximumInput`` bytes, a line over ``maximumLine`` bytes, a line without `=`, a NUL byte or a
/// carriage return anywhere, a `url` or `host` with a user or password in it, a port that is
/// not a number from 1 to 65535, an expiry that is not a number of seconds.
struct GitCredentialRequest {
    /// The largest input read: 1 MiB (git sends a few hundred bytes).
    static let maximumInput = 1 << 20
    /// The longest line: 64 KiB, room for any token a server issues.
    static let maximumLine = 65_536

    /// The credential the lines describe (a query for `get` and `erase`).
    var credential: NetworkCredential

    /// A request that cannot be read: what was wrong, in words that name no value.
    struct Refusal: Error {
        var reason: String
    }

    /// Parses `input` (everything read from standard input, at most ``maximumInput`` bytes).
    init(parsing input: [UInt8]) throws(Refusal) {
        if input.contains(0) { throw Refusal(reason: "the input holds a NUL byte; git never sends one, so it was not git that wrote it") }
        if input.contains(UInt8(ascii: "\r")) {
            throw Refusal(reason: "the input holds a carriage return, which git refuses in credential values (CVE-2024-52006)")
        }
        var fields: [String: String] = [:]
        for rawLine in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if rawLine.isEmpty { break }
            if rawLine.count > Self.maximumLine {
                throw Refusal(reason: "a line is \(rawLine.count) bytes, more than the \(Self.maximumLine) a credential line may have")
            }
            let line = String(decoding: rawLine, as: UTF8.self)
            guard let equals = line.firstIndex(of: "=") else {
                throw Refusal(reason: "a line has no '=' (expected key=value lines, as git-credential(1) describes)")
            }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        credential = try Self.credential(from: fields)
    }

    /// The credential of the fields git sent (`url` first, then the single fields over it, as git
    /// reads them in order; git sends one or the other).
    private static func credential(from fields: [String: String]) throws(Refusal) -> NetworkCredential {
        var credential = NetworkCredential(protocol: "")
        if let url = fields["url"] { credential = try self.credential(fromURL: url) }
        if let value = fields["protocol"] { credential.protocol = value.lowercased() }
        if let host = fields["host"] {
            let (name, port) = try hostAndPort(host)
            credential.host = name
            credential.port = port
        }
        if let path = fields["path"] { credential.path = path }
        if let username = fields["username"] { credential.username = username }
        if let password = fields["password"] { credential.password = password }
        if let token = fields["oauth_refresh_token"] { credential.oauthRefreshToken = token }
        if let expiry = fields["password_expiry_utc"] {
            guard let seconds = Int64(expiry), seconds >= 0, seconds < 253_402_300_800 else {
                throw Refusal(reason: "password_expiry_utc is not a number of seconds since 1970 (got \(expiry.count) characters that are not one)")
            }
            credential.expiry = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return credential
    }

    /// The parts of a `url=` line; one that carries a user name or password is refused (it
    /// would put a password where no helper looks for one).
    private static func credential(fromURL text: String) throws(Refusal) -> NetworkCredential {
        guard let url = URLComponents(string: text), url.scheme != nil else { throw Refusal(reason: "the url line is not a URL") }
        if url.user != nil || url.password != nil {
            throw Refusal(reason: "the url line has a user name or password in it; send them as username= and password= lines, and take them out of the remote's URL (git remote set-url)")
        }
        guard let credential = NetworkCredential(url: url, keepingUserInfo: false) else { throw Refusal(reason: "the url's port is not from 1 to 65535") }
        return credential
    }

    /// `host[:port]` (`[v6]:port` too) as git sends it.
    private static func hostAndPort(_ text: String) throws(Refusal) -> (String, UInt16?) {
        if text.contains("@") || text.contains("/") || text.contains(where: \.isWhitespace) {
            throw Refusal(reason: "the host holds '@', '/' or a space; a host is a name or address with an optional :port, never a user or a path")
        }
        guard let split = NetworkCredential.hostAndPort(text[...]) else { throw Refusal(reason: "the host's port is not a number from 1 to 65535") }
        return split
    }
}
#endif
