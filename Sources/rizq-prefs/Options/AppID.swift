import Foundation

/// Which app a command means: `--app`, else `RIZQ_PREFS_APP_ID`.
enum AppID {
    /// `explicit` when given, else `RIZQ_PREFS_APP_ID`; `nil` when neither is set (or empty).
    static func resolve(_ explicit: String?) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let id = ProcessInfo.processInfo.environment["RIZQ_PREFS_APP_ID"], !id.isEmpty { return id }
        return nil
    }
}
