import CSecretShim
import Foundation

/// The shim's calls, with its error kinds turned into ``SecretError``. Runs on ``SecretWorker``.
enum LibSecret {
    /// Fails fast when there is no session bus at all, instead of letting GLib try to autolaunch one.
    static func checkSessionBus() throws(SecretError) {
        // getenv, not ProcessInfo's environment, which builds a dictionary of every variable
        // on each call (30 µs here, on every secret call).
        if let address = variable("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return }
        if let runtime = variable("XDG_RUNTIME_DIR"), FileManager.default.fileExists(atPath: runtime + "/bus") { return }
        throw .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Runs a shim call; after a lost connection (a restarted daemon) reconnects once and retries.
    /// `alias` names the keyring the call is about, for a "no such keyring" error.
    static func call(alias: String = "default", _ body: (UnsafeMutablePointer<rizq_secret_error>) -> Int32) throws(SecretError) -> Int32 {
        try checkSessionBus()
        var error = rizq_secret_error()
        var status = body(&error)
        if status == Int32(RIZQ_SECRET_DISCONNECTED) || status == Int32(RIZQ_SECRET_NO_SERVICE) {
            rizq_secret_disconnect()
            error = rizq_secret_error()
            status = body(&error)
        }
        if status == Int32(RIZQ_SECRET_OK) || status == Int32(RIZQ_SECRET_NOT_FOUND) { return status }
        throw map(status, message(of: &error), alias: alias)
    }

    static func map(_ status: Int32, _ detail: String, alias: String = "default") -> SecretError {
        switch status {
        case Int32(RIZQ_SECRET_NO_BUS): return .noSessionBus(detail: detail)
        case Int32(RIZQ_SECRET_NO_SERVICE): return .serviceUnavailable(detail: detail)
        case Int32(RIZQ_SECRET_LOCKED): return .locked(detail: detail)
        case Int32(RIZQ_SECRET_DISMISSED): return .promptDismissed
        case Int32(RIZQ_SECRET_TIMED_OUT): return .failed(detail: "the service timed out: \(detail)")
        case Int32(RIZQ_SECRET_INVALID): return .invalidInput(reason: detail)
        case Int32(RIZQ_SECRET_NO_COLLECTION): return .noCollection(alias: alias)
        default: return .failed(detail: detail)
        }
    }

    private static func message(of error: inout rizq_secret_error) -> String {
        withUnsafeBytes(of: &error.message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
