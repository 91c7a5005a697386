import Foundation

/// How long a secret may be served, and what renews it: an OAuth access token's expiry and its
/// refresh token, as git 2.40/2.41 hands them to credential helpers (`password_expiry_utc`,
/// `oauth_refresh_token`).
///
/// A store never serves an expired secret: `secretBytes(forAccount:)` and the reads built on it
/// answer `nil`, as for a missing one, so that a caller asks for a new secret.
/// `SecretStore.readSecret(forAccount:)` tells the two apart and hands back the refresh token.
///
/// ```swift
/// try secrets.setSecret(accessToken, forAccount: "github",
///                       lifetime: SecretLifetime(expires: Date(timeIntervalSinceNow: 3600), refreshToken: refresh))
/// switch try secrets.readSecret(forAccount: "github") {
/// case .found(let bytes, _)?: use(bytes)
/// case .expired(let lifetime)?: renew(with: lifetime.refreshToken)
/// case nil: signIn()
/// }
/// ```
///
/// Where each backend keeps it: the Secret Service and the file keyring keep the expiry as the
/// item's `password_expiry_utc` attribute (Unix seconds, as git names it); the vault and the
/// plain-text file keep both inside the item. The refresh token is a secret and is kept as one:
/// inside the vault's encrypted item, in the file keyring's encrypted attributes, and in the
/// Secret Service as an item of its own (never an attribute, which a locked keyring shows).
/// Credential folders are read-only and keep none.
public struct SecretLifetime: Sendable, Equatable, Hashable, Codable {
    /// When the secret stops being served; `nil`: it does not expire.
    public var expires: Date?
    /// The token that gets a new secret once this one expired; `nil`: none.
    public var refreshToken: String?

    /// A lifetime ending at `expires`, renewed with `refreshToken`.
    public init(expires: Date? = nil, refreshToken: String? = nil) {
        self.expires = expires
        self.refreshToken = refreshToken
    }

    /// Whether the secret has expired at `now`: its expiry is `now` or earlier.
    public func isExpired(at now: Date = Date()) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// Whether it says nothing: no expiry and no refresh token (stored as no lifetime at all).
    public var isEmpty: Bool { expires == nil && refreshToken == nil }

    /// The longest refresh token kept: 64 KiB (OAuth refresh tokens are a few hundred bytes).
    public static let maximumRefreshTokenSize = 64 << 10

    /// The name of the attribute that keeps the expiry in the Secret Service and the file
    /// keyring: git's own name for it.
    package static let expiryAttribute = "password_expiry_utc"

    /// The expiry as the attribute keeps it: whole Unix seconds (a fraction is dropped, so the
    /// secret expires at most a second early, never late).
    package var expiryAttributeValue: String? {
        expires.map { String(Int64(max(min($0.timeIntervalSince1970.rounded(.down), 253_402_300_799), 0))) }
    }

    /// The expiry an attribute holds, `nil` when it holds none. A value that is not whole Unix
    /// seconds between 1970 and 9999 was not written by this package or git: it is taken as
    /// already past (refused, never served), so that damage cannot make a secret live forever.
    package static func expiry(attribute value: String?) -> Date? {
        guard let value else { return nil }
        guard value.utf8.count <= 12, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(value),
            seconds <= 253_402_300_799
        else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Why no store keeps this lifetime, or `nil`: a refresh token with a NUL byte, or one larger
    /// than ``maximumRefreshTokenSize``.
    package var problem: String? {
        guard let refreshToken else { return nil }
        if refreshToken.utf8.contains(0) { return "the refresh token contains a NUL byte" }
        if refreshToken.utf8.count > Self.maximumRefreshTokenSize {
            return "the refresh token is \(refreshToken.utf8.count) bytes, more than the \(Self.maximumRefreshTokenSize >> 10) KiB one may hold"
        }
        return nil
    }

    /// Throws ``SecretError/invalidInput(reason:)`` with the ``problem``, if there is one.
    package func validate() throws(SecretError) {
        if let problem { throw .invalidInput(reason: problem) }
    }
}

/// What a read of an account found, when the caller needs to know that a secret expired
/// (`SecretStore.readSecret(forAccount:)`); a missing account is `nil`.
public enum SecretReading: Sendable, Equatable {
    /// The secret, served: its bytes and its lifetime (`nil`: it has none).
    case found(Data, lifetime: SecretLifetime?)
    /// The secret expired and is not served; its lifetime, with the refresh token that renews it.
    case expired(SecretLifetime)

    /// The secret's bytes when it was served, else `nil`.
    public var bytes: Data? {
        if case .found(let bytes, _) = self { return bytes }
        return nil
    }

    /// The reading of `bytes` stored with `lifetime`, at `now`: expired or found.
    package static func of(_ bytes: Data, lifetime: SecretLifetime?, at now: Date = Date()) -> SecretReading {
        guard let lifetime, !lifetime.isEmpty else { return .found(bytes, lifetime: nil) }
        return lifetime.isExpired(at: now) ? .expired(lifetime) : .found(bytes, lifetime: lifetime)
    }
}
