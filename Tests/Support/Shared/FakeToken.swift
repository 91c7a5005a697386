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

    /// A Supabase SSR cookie-style value: `base64-` and base64 of a session JSON.
    public static func base64Session() -> String {
        "base64-" + Data(#"{"access_token":"\#(jwt())","refresh_token":"\#(opaque())"}"#.utf8).base64EncodedString()
    }
}
