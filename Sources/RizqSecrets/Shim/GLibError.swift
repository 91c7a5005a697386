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
    /// `timed-out`, `is-locked`); empty when the domain has none.
    var codeName: String
    /// The D-Bus error name the service replied with (`org.freedesktop.Secret.Error.IsLocked`);
    /// empty for an error raised in this process.
    var dbusName: String
    /// GLib's message, which never holds a secret.
    var message: String

    init(domain: String, code: Int32 = 0, codeName: String, dbusName: String = "", message: String = "") {
        self.domain = domain
        self.code = code
        self.codeName = codeName
        self.dbusName = dbusName
        self.message = message
    }

    /// The shim's report.
    init(_ error: rizq_secret_error) {
        var error = error
        domain = Self.text(&error.domain)
        code = error.code
        codeName = Self.text(&error.code_name)
        dbusName = Self.text(&error.dbus_name)
        message = Self.text(&error.message)
    }

    /// The UTF-8 text of a NUL-terminated C array of fixed size.
    private static func text<Storage>(_ storage: inout Storage) -> String {
        withUnsafeBytes(of: &storage) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
