#if Secrets
/// Why a call into the Secret Service failed, in the terms RizqSecrets acts on.
///
/// The C shim reports what it found (a ``ShimStatus``, and for a GLib error its domain, code,
/// D-Bus error name and message: ``GLibError``); this type gives that meaning, in one place
/// (``init(status:error:)``), as swift-system's `Errno` gives C's error numbers one documented
/// name each. Each case names the errors it stands for: D-Bus error names as the service replies
/// them, GLib codes by their nickname in GDBus's (`GDBusError`), GIO's (`GIOErrorEnum`) and
/// libsecret's (`SecretError`) enum types. The policy (``SecretServicePolicy``) adds the
/// outcomes it decides itself: locked, dismissed, no collection.
///
/// A D-Bus error name decides alone when there is one (the service replied with an error);
/// otherwise the domain and code do.
enum SecretServiceFailure: Equatable, Sendable {
    /// libsecret is not installed: `libsecret-1.so.0` could not be loaded
    /// (``ShimStatus/noLibrary``).
    case libsecretMissing

    /// The installed libsecret lacks a function the shim calls (``ShimStatus/noSymbol``).
    case libsecretTooOld

    /// There is no D-Bus session bus to talk to.
    ///
    /// GDBus `no-server`, `bad-address`, `file-not-found`; GIO `not-found`,
    /// `connection-refused`, `invalid-argument`, `not-supported`; and GIO `failed` when
    /// `g_bus_get` cannot autolaunch a bus (its message names D-Bus, autolaunching or
    /// `DBUS_SESSION_BUS_ADDRESS`).
    case noSessionBus

    /// Nothing owns `org.freedesktop.secrets`: no Secret Service provider runs or can be started.
    ///
    /// `org.freedesktop.DBus.Error.ServiceUnknown`, `org.freedesktop.DBus.Error.NameHasNoOwner`;
    /// GDBus `service-unknown`, `name-has-no-owner`.
    case serviceUnavailable

    /// The connection, or the object called, went away (a restarted daemon): connect again and
    /// retry.
    ///
    /// `org.freedesktop.Secret.Error.NoSuchObject`, `org.freedesktop.Secret.Error.NoSession`
    /// (the session was the old daemon's), `org.freedesktop.DBus.Error.UnknownObject`,
    /// `org.freedesktop.DBus.Error.UnknownMethod`, KWallet's `org.qtproject.QtDBus.Error.InvalidObjectPath`
    /// (a session it no longer knows); GDBus `disconnected`, `unknown-object`,
    /// `unknown-method`; GIO `closed`, `broken-pipe`; libsecret `no-such-object`.
    case disconnected

    /// The encrypted session this connection opened cannot be used: the service refused the
    /// client's half of the key exchange when the session was opened (``ShimStatus/noSession``
    /// with an error no other case names, such as KWallet's `InvalidArgs` "Client public key size
    /// is invalid"), or it gave no secret this session could decrypt for an item it listed as
    /// unlocked (the policy's own finding). kwalletd5 5.103 does both for about one session in a
    /// hundred: it derives the session key otherwise than libsecret when a key has leading zero
    /// bytes or its high bit set (KDE bug 514194). Connect again, with a new session, and retry.
    case sessionRefused

    /// The item or collection is locked, and no prompt was allowed.
    ///
    /// `org.freedesktop.Secret.Error.IsLocked`; libsecret `is-locked`; and the policy's own
    /// finding (a search found the item locked, or the service gave no secret for it).
    case locked

    /// The prompt to unlock was dismissed, or could not be shown.
    ///
    /// GIO `cancelled`; and the policy's own finding (the prompt completed dismissed, or an
    /// unlock unlocked nothing).
    case promptDismissed

    /// No collection has the alias the store writes to: the policy's own finding
    /// (`ReadAlias` answered `/`).
    case noCollection

    /// The service did not answer within the D-Bus time-out.
    ///
    /// `org.freedesktop.DBus.Error.NoReply`, `org.freedesktop.DBus.Error.Timeout`,
    /// `org.freedesktop.DBus.Error.TimedOut`; GDBus `no-reply`, `timeout`, `timed-out`; GIO
    /// `timed-out`.
    case timedOut

    /// Anything else; the message says what.
    case other

    /// What the shim's `status` and, for ``ShimStatus/failed``, its GLib `error` mean.
    init(status: ShimStatus, error: GLibError) {
        switch status {
        case .noLibrary: self = .libsecretMissing
        case .noSymbol: self = .libsecretTooOld
        case .noSession:
            let named = Self(error)
            self = named == .other ? .sessionRefused : named
        default: self = Self(error)
        }
    }

    /// What a GLib error means.
    init(_ error: GLibError) {
        if !error.dbusName.isEmpty {
            self = Self.remoteErrors[error.dbusName] ?? .other
            return
        }
        switch (error.domain, error.codeName) {
        case ("g-io-error-quark", "failed"):
            let bus = ["D-Bus", "autolaunch", "DBUS_SESSION_BUS_ADDRESS"].contains { error.message.contains($0) }
            self = bus ? .noSessionBus : .other
        case (let domain, let code):
            self = Self.localErrors[domain]?[code] ?? .other
        }
    }

    private static let remoteErrors: [String: SecretServiceFailure] = [
        "org.freedesktop.DBus.Error.ServiceUnknown": .serviceUnavailable,
        "org.freedesktop.DBus.Error.NameHasNoOwner": .serviceUnavailable,
        "org.freedesktop.Secret.Error.IsLocked": .locked,
        "org.freedesktop.Secret.Error.NoSuchObject": .disconnected,
        "org.freedesktop.Secret.Error.NoSession": .disconnected,
        "org.freedesktop.DBus.Error.UnknownObject": .disconnected,
        "org.freedesktop.DBus.Error.UnknownMethod": .disconnected,
        // KWallet (QtDBus) answers so for a session path it no longer knows, where the
        // specification says NoSession.
        "org.qtproject.QtDBus.Error.InvalidObjectPath": .disconnected,
        "org.freedesktop.DBus.Error.NoReply": .timedOut,
        "org.freedesktop.DBus.Error.Timeout": .timedOut,
        "org.freedesktop.DBus.Error.TimedOut": .timedOut,
    ]

    private static let localErrors: [String: [String: SecretServiceFailure]] = [
        "g-dbus-error-quark": [
            "service-unknown": .serviceUnavailable, "name-has-no-owner": .serviceUnavailable,
            "no-server": .noSessionBus, "bad-address": .noSessionBus, "file-not-found": .noSessionBus,
            "no-reply": .timedOut, "timeout": .timedOut, "timed-out": .timedOut,
            "disconnected": .disconnected, "unknown-object": .disconnected, "unknown-method": .disconnected,
        ],
        "g-io-error-quark": [
            "timed-out": .timedOut,
            "cancelled": .promptDismissed,
            "closed": .disconnected, "broken-pipe": .disconnected,
            "not-found": .noSessionBus, "connection-refused": .noSessionBus,
            "invalid-argument": .noSessionBus, "not-supported": .noSessionBus,
        ],
        "secret-error": [
            "is-locked": .locked,
            "no-such-object": .disconnected,
        ],
    ]
}

extension SecretServiceFailure {
    /// The error a caller sees; `detail` is GLib's message (the loader's, the policy's), `alias`
    /// the keyring the call was about, `timeout` the caller's time-out.
    func secretError(detail: String, alias: String, timeout: Double) -> SecretError {
        switch self {
        case .libsecretMissing:
            return .libsecretMissing(
                detail: "libsecret is not installed: libsecret-1.so.0 cannot be loaded (\(detail)); install it with `apt-get install libsecret-1-0`")
        case .libsecretTooOld:
            return .libsecretMissing(
                detail: "the installed libsecret-1.so.0 lacks \(detail) (it is older than 0.18); upgrade it with `apt-get install libsecret-1-0`")
        case .noSessionBus: return .noSessionBus(detail: detail)
        case .serviceUnavailable: return .serviceUnavailable(detail: detail)
        case .locked: return .locked(detail: detail)
        case .promptDismissed: return .promptDismissed
        case .noCollection: return .noCollection(alias: alias)
        case .timedOut: return .timedOut(seconds: timeout)
        case .sessionRefused:
            return .failed(
                detail: "the Secret Service failed the encrypted session of three connections in a row (\(detail)); "
                    + "try again, and if it persists restart the provider (KWallet before 6.x: KDE bug 514194)")
        case .disconnected, .other: return .failed(detail: detail)
        }
    }
}
#endif
