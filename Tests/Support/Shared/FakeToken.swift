import Foundation

/// Fake credentials, made at run time so that nothing token-shaped is committed (and secret
/// scanners have nothing to flag). Each call gives a new random value.
public enum FakeToken {
    public static func randomText(_ count: Int, alphabet: String = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters[Int.random(in: 0..<characters.count)] })
    }

    public static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A JWT with a JSON header and payload and a random (invalid) signature.
    public static func jwt(subject: String = "user-1") -> String {
        let header = base64URL(#"{"alg":"HS256","typ":"JWT"}"#)
        let payload = base64URL(#"{"sub":"\#(subject)","exp":1700000000,"n":"\#(randomText(8))"}"#)
        return header + "." + payload + "." + randomText(43, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }

    /// A five-part JWE (RSA-OAEP / A256GCM header, random parts).
    public static func jwe() -> String {
        let header = base64URL(#"{"alg":"RSA-OAEP","enc":"A256GCM"}"#)
        return [header, randomText(342), randomText(16), randomText(600), randomText(22)].joined(separator: ".")
    }

    public static func googleAccess() -> String { "ya" + "29." + randomText(60) }
    public static func github() -> String { "gh" + "p_" + randomText(36) }
    public static func awsKeyID() -> String { "AK" + "IA" + randomText(16, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") }
    public static func stripe() -> String { "sk_" + "live_" + randomText(24) }
    public static func opaque() -> String { randomText(40) }

    static let alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    static let base64URLAlphabet = alphanumeric + "-_"

    public static func stripeTest() -> String { "sk_" + "test_" + randomText(24) }
    public static func stripeRestricted() -> String { "rk_" + "live_" + randomText(24) }
    public static func openAIProject() -> String { "sk-" + "proj-" + randomText(48, alphabet: base64URLAlphabet) }
    public static func anthropic() -> String { "sk-" + "ant-api03-" + randomText(80, alphabet: base64URLAlphabet) }
    public static func googleAPIKey() -> String { "AI" + "za" + randomText(35, alphabet: base64URLAlphabet) }
    public static func npm() -> String { "np" + "m_" + randomText(36) }
    /// A Slack token with `prefix` (`xoxa`, `xoxb`, `xoxp`, …).
    public static func slack(_ prefix: String = "xoxa") -> String {
        prefix + "-" + randomText(12, alphabet: "0123456789") + "-" + randomText(12, alphabet: "0123456789") + "-" + randomText(24)
    }
    public static func gitlab() -> String { "gl" + "pat-" + randomText(20, alphabet: base64URLAlphabet) }
    public static func huggingFace() -> String { "h" + "f_" + randomText(34) }
    public static func sendGrid() -> String { "S" + "G." + randomText(22, alphabet: base64URLAlphabet) + "." + randomText(43, alphabet: base64URLAlphabet) }
    /// `Bearer` and an opaque token (not a JWT).
    public static func bearer() -> String { "Bearer " + randomText(40, alphabet: base64URLAlphabet) }
    /// `Basic` and base64 of `user:password`.
    public static func basic() -> String { "Basic " + Data("user-\(randomText(4)):\(randomText(16))".utf8).base64EncodedString() }
    /// An Express session cookie, as `document.cookie` shows it among others.
    public static func expressSessionCookie() -> String { "theme=dark; connect.sid=s%3A" + randomText(32) + "." + randomText(43) + "; lang=en" }
    public static func phpSessionCookie() -> String { "PHPSESSID=" + randomText(26, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") }
    public static func pemPrivateKey() -> String {
        "-----BEGIN " + "PRIVATE KEY-----\n" + Data((0..<48).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n-----END " + "PRIVATE KEY-----"
    }

    /// A Supabase SSR cookie-style value: `base64-` and base64 of a session JSON.
    public static func base64Session() -> String {
        "base64-" + Data(#"{"access_token":"\#(jwt())","refresh_token":"\#(opaque())"}"#.utf8).base64EncodedString()
    }
}
