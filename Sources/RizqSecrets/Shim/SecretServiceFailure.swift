import CSecretShim

/// Why a call into the Secret Service failed, in the terms RizqSecrets acts on.
///
/// The C shim reports what it found (a status, and for a GLib error its domain, code, the
/// code's GLib nickname, the D-Bus error name and the message: ``GLibError``); this type gives
/// that meaning, in one place (``init(status:error:)``), as swift-system's `Errno` gives C's
/// error numbers one documented name each. Each case names the errors it stands for: D-Bus
/// error names as the service replies them, GLib codes by their nickname in GDBus's
/// (`GDBusError`), GIO's (`GIOErrorEnum`) and libsecret's (`SecretError`) enum types.
///
/// A D-Bus error name decides alone when there is one (the service replied with an error);
/// otherwise the domain and code do.
enum SecretServiceFailure: Equatable, Sendable {
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
    /// `org.freedesktop.Secret.Error.NoSuchObject`, `org.freedesktop.DBus.Error.UnknownObject`,
    /// `org.freedesktop.DBus.Error.UnknownMethod`; GDBus `disconnected`, `unknown-object`,
    /// `unknown-method`; GIO `closed`, `broken-pipe`; libsecret `no-such-object`.
    case disconnected

    /// The item or collection is locked, and no prompt was allowed.
    ///
    /// `org.freedesktop.Secret.Error.IsLocked`; libsecret `is-locked`; the shim's
    /// `RIZQ_SECRET_LOCKED` (it found the item locked, or the service gave no secret for it).
    case locked

    /// The prompt to unlock was dismissed, or could not be shown.
    ///
    /// GIO `cancelled`; the shim's `RIZQ_SECRET_DISMISSED` (the prompt unlocked nothing).
    case promptDismissed

    /// No collection has the alias the store writes to.
    ///
    /// The shim's `RIZQ_SECRET_NO_COLLECTION`.
    case noCollection

    /// The service did not answer within the D-Bus time-out.
    ///
    /// `org.freedesktop.DBus.Error.NoReply`, `org.freedesktop.DBus.Error.Timeout`,
    /// `org.freedesktop.DBus.Error.TimedOut`; GDBus `no-reply`, `timeout`, `timed-out`; GIO
    /// `timed-out`.
    case timedOut

    /// Anything else; the message says what.
    case other

    /// What the shim's `status` and, for `RIZQ_SECRET_ERROR`, its GLib `error` mean.
    init(status: Int32, error: GLibError) {
        switch status {
        case Int32(RIZQ_SECRET_LOCKED): self = .locked
        case Int32(RIZQ_SECRET_DISMISSED): self = .promptDismissed
        case Int32(RIZQ_SECRET_NO_COLLECTION): self = .noCollection
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
        "org.freedesktop.DBus.Error.UnknownObject": .disconnected,
        "org.freedesktop.DBus.Error.UnknownMethod": .disconnected,
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
