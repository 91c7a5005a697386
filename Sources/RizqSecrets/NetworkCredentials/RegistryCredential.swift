#if Secrets
import Foundation

/// A container registry's login, as docker's credential helpers exchange it: the server's URL
/// (as docker names it: `https://index.docker.io/v1/`, `registry.example.com:5000`), the user
/// name (`<token>` for an identity token) and the secret.
public struct RegistryCredential: Sendable, Equatable, Codable {
    /// The registry, exactly as docker names it.
    public var serverURL: String
    /// The user name.
    public var username: String
    /// The password or token.
    public var secret: String

    /// A credential from its parts.
    public init(serverURL: String, username: String, secret: String) {
        self.serverURL = serverURL
        self.username = username
        self.secret = secret
    }

    private enum CodingKeys: String, CodingKey {
        case serverURL = "ServerURL"
        case username = "Username"
        case secret = "Secret"
    }

    /// The longest server URL kept, in UTF-8 bytes.
    public static let maximumServerURLLength = 4_096

    /// Why `url` cannot name a registry, or `nil`: empty, too long, or holding a control
    /// character (a line break would split docker's `get` request).
    public static func problem(withServerURL url: String) -> String? {
        if url.isEmpty { return "the server URL is empty" }
        if url.utf8.count > maximumServerURLLength { return "the server URL is longer than \(maximumServerURLLength) bytes" }
        if url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the server URL holds a control character (a line break, a NUL byte, …)"
        }
        return nil
    }
}
#endif
