#if Secrets
/// The file name of the credential that holds service `S`'s account `A`: `S.A`.
///
/// systemd's rules for a credential name (the `ID` of `LoadCredential=ID:PATH`, and the file's
/// name in `$CREDENTIALS_DIRECTORY`): any bytes but `/` and NUL, at most 255 bytes, and neither
/// `.` nor `..` (systemd 252 refuses `a/b` with "Invalid credential name", and a 256-byte
/// name). A NUL is refused before a name is ever made (`SecretInput`). So that every service
/// and account still has a name, and the name reads back to them, two characters are written
/// escaped: `/` as `%2F` and `%` as `%25`; everything else is as it is:
///
/// | service | account | credential name |
/// | --- | --- | --- |
/// | `com.rizq.server` | `database.password` | `com.rizq.server.database.password` |
/// | `com.rizq.server` | `tokens/github` | `com.rizq.server.tokens%2Fgithub` |
/// | `com.rizq.server` | `100%` | `com.rizq.server.100%25` |
///
/// A name longer than 255 bytes cannot be delivered by systemd: there is no such credential.
/// The name is flat: `a.b` + `c` and `a` + `b.c` are both `a.b.c`, and each service finds it
/// (as its own account `c` or `b.c`).
public enum CredentialName {
    /// The longest name systemd accepts, in bytes.
    public static let maximumLength = 255

    /// The credential name of `account` of `service`, or `nil` when it cannot be one (longer than
    /// ``maximumLength``).
    public static func of(service: String, account: String) -> String? {
        let name = escape(service) + "." + escape(account)
        guard name.utf8.count <= maximumLength, name != "..", name != "." else { return nil }
        return name
    }

    /// The account `fileName` holds for `service`, or `nil` when it is not one of `service`'s
    /// (it does not start with the escaped service and a dot, or has a `%` that is not one of
    /// the two escapes).
    public static func account(in fileName: String, service: String) -> String? {
        let prefix = escape(service) + "."
        guard fileName.hasPrefix(prefix) else { return nil }
        return unescape(String(fileName.dropFirst(prefix.count)))
    }

    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "%" || $0 == "/" }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "%": escaped += "%25"
            case "/": escaped += "%2F"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func unescape(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var result = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let code = rest[percent...].prefix(3)
            switch code.uppercased() {
            case "%25": result += "%"
            case "%2F": result += "/"
            default: return nil
            }
            rest = rest[percent...].dropFirst(3)
        }
        return result + rest
    }
}
#endif
