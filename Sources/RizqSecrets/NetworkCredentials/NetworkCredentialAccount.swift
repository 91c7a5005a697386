#if Secrets
import Foundation

/// The account name a credential has in a chain that is not the Secret Service (the vault, the
/// file keyring, credential folders): `PROTOCOL://[USER@]HOST[:PORT]/PATH`, the user name
/// percent-encoded, so that `rizq-prefs secret list --service git-credentials` reads as URLs and
/// each name parses back to the credential's place and user.
enum NetworkCredentialAccount {
    /// The account name of `credential` (its place and user).
    static func name(of credential: NetworkCredential) -> String {
        let user = credential.username.map { encode($0) + "@" } ?? ""
        let port = credential.port.map { ":\($0)" } ?? ""
        return "\(credential.protocol)://\(user)\(credential.host ?? "")\(port)/\(credential.path ?? "")"
    }

    /// The place and user an account name gives, or `nil` when it is not one of ours.
    static func credential(named name: String) -> NetworkCredential? {
        guard let schemeEnd = name.range(of: "://") else { return nil }
        let scheme = String(name[..<schemeEnd.lowerBound])
        let rest = name[schemeEnd.upperBound...]
        guard !scheme.isEmpty, let slash = rest.firstIndex(of: "/") else { return nil }
        let path = String(rest[rest.index(after: slash)...])
        var authority = rest[..<slash]
        var username: String?
        if let at = authority.lastIndex(of: "@") {
            guard let user = String(authority[..<at]).removingPercentEncoding else { return nil }
            username = user
            authority = authority[authority.index(after: at)...]
        }
        guard let split = NetworkCredential.hostAndPort(authority) else { return nil }
        return NetworkCredential(
            protocol: scheme, host: split.host.isEmpty ? nil : split.host, port: split.port, path: path.isEmpty ? nil : path, username: username)
    }

    /// `text` with `%`, `@`, `:` and `/` percent-encoded.
    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.urlUserAllowed
        allowed.remove(charactersIn: "%@:/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
#endif
