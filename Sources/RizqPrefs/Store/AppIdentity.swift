import Foundation
import Synchronization

/// Which app "the standard suite" belongs to.
///
/// In order: `RIZQ_PREFS_APP_ID` from the environment, else the id given to
/// ``SuiteStore/configure(appID:)``, else the executable's file name.
enum AppIdentity {
    private static let configured = Mutex<String?>(nil)

    static func configure(_ appID: String?) {
        configured.withLock { $0 = appID }
    }

    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let fromEnvironment = environment["RIZQ_PREFS_APP_ID"], !fromEnvironment.isEmpty { return fromEnvironment }
        if let explicit = configured.withLock({ $0 }) { return explicit }
        return executableName()
    }

    private static func executableName() -> String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
        return name.isEmpty ? "app" : name
    }
}
