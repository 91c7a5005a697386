#if Secrets
import CSecretShim

/// A GError as the C shim hands it over: by names, since no GLib type crosses the shim's
/// header. ``SecretServiceFailure`` gives it its meaning.
struct GLibError: Sendable, Equatable {
    /// The error domain's name: `g-dbus-error-quark`, `g-io-error-quark` or `secret-error` for
    /// the errors RizqSecrets tells apart; empty when the shim reported no GError.
    var domain: String
    /// The GError code.
    var code: Int32
    /// The code's nickname in the enum type GLib registers for the domain (`no-reply`,
    /// `timed-out`, `is-locked`); empty when the code is not one RizqSecrets tells apart.
    var codeName: String
    /// The D-Bus error name the service replied with (`org.freedesktop.Secret.Error.IsLocked`);
    /// empty for an error raised in this process.
    var dbusName: String
    /// GLib's message (or the loader's), which never holds a secret.
    var message: String

    init(domain: String, code: Int32 = 0, codeName: String, dbusName: String = "", message: String = "") {
        self.domain = domain
        self.code = code
        self.codeName = codeName
        self.dbusName = dbusName
        self.message = message
    }

    /// The shim's report; the code's nickname from ``nicknames``.
    init(_ error: rizq_secret_error) {
        var error = error
        domain = Self.text(&error.domain)
        code = error.code
        codeName = Self.nicknames[domain]?[code] ?? ""
        dbusName = Self.text(&error.dbus_name)
        message = Self.text(&error.message)
    }

    /// The nicknames of the codes ``SecretServiceFailure`` tells apart, by domain: the values of
    /// GIO's `GDBusError` and `GIOErrorEnum` (gio/gioenums.h) and libsecret's `SecretError`
    /// (secret-types.h), which keep their numbers (both libraries only add codes at the end).
    /// The shim passes numbers, not names: looking names up would take GObject's type system.
    static let nicknames: [String: [Int32: String]] = [
        "g-dbus-error-quark": [
            0: "failed", 2: "service-unknown", 3: "name-has-no-owner", 4: "no-reply", 6: "bad-address",
            11: "no-server", 12: "timeout", 15: "disconnected", 17: "file-not-found", 19: "unknown-method",
            20: "timed-out", 41: "unknown-object",
        ],
        "g-io-error-quark": [
            0: "failed", 1: "not-found", 13: "invalid-argument", 15: "not-supported", 18: "closed", 19: "cancelled",
            24: "timed-out", 36: "dbus-error", 39: "connection-refused", 44: "broken-pipe",
        ],
        "secret-error": [1: "protocol", 2: "is-locked", 3: "no-such-object", 4: "already-exists"],
    ]

    /// The UTF-8 text of a NUL-terminated C array of fixed size.
    private static func text<Storage>(_ storage: inout Storage) -> String {
        withUnsafeBytes(of: &storage) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
#endif
