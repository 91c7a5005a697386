import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Which app this process is: the one answer that suites, secrets and the command-line tool share.
///
/// The app id names the standard suite (where Apple platforms use the bundle identifier) and is
/// the `service` of secrets stored without one. It is resolved in this order:
///
/// 1. `RIZQ_PREFS_APP_ID` from the environment, when set and not empty (so that a shell, a
///    systemd unit or a test can point any program at another app's settings);
/// 2. the id given to ``configure(appID:)`` (what `SuiteStore.configure(appID:)` calls);
/// 3. the executable's file name.
///
/// ```swift
/// AppIdentity.configure(appID: "com.rizq.app")    // once, at the entry point
/// AppIdentity.current                              // "com.rizq.app", unless RIZQ_PREFS_APP_ID says otherwise
/// ```
public enum AppIdentity {
    private static let configured = Mutex<String?>(nil)

    /// The environment variable that names the app for every program that reads it.
    public static let environmentVariable = "RIZQ_PREFS_APP_ID"

    /// Names the app for this process (an empty id, or `nil`, forgets the earlier one).
    public static func configure(appID: String?) {
        configured.withLock { $0 = appID?.isEmpty == false ? appID : nil }
    }

    /// The app id now: the environment, else ``configure(appID:)``'s, else the executable's name.
    public static var current: String {
        resolve(environment: nil)
    }

    /// ``current``, read from `environment` instead of the process's own (`nil`: the process's).
    package static func resolve(environment: [String: String]?) -> String {
        if let fromEnvironment = variable(in: environment), !fromEnvironment.isEmpty { return fromEnvironment }
        if let explicit = configured.withLock({ $0 }) { return explicit }
        return executableName()
    }

    /// The id an explicit option names (`explicit`, when given and not empty), else the
    /// environment's; `nil` when neither says: for a command-line tool, whose own name is not
    /// the app it works on.
    package static func named(_ explicit: String?, environment: [String: String]? = nil) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = variable(in: environment), !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }

    /// `RIZQ_PREFS_APP_ID` from `environment`, or from the process's own with `getenv`: a
    /// one-key `rizq-prefs get` must not pay for `ProcessInfo.environment`, which copies every
    /// variable into a dictionary (a twelfth of the command's instructions).
    private static func variable(in environment: [String: String]?) -> String? {
        if let environment { return environment[environmentVariable] }
        return getenv(environmentVariable).map { String(cString: $0) }
    }

    private static func executableName() -> String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
        return name.isEmpty ? "app" : name
    }
}
