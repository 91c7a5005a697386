import Foundation
import RizqPrefs  // LINUX EDIT 1 (see UserDefaultsKey.swift).

// LINUX EDIT 5: on iOS this was the widget's SwiftUI view (`struct StreakWidgetView: View`, with a
// `body`); Linux has no SwiftUI, so the @AppStorage line lives in a plain struct. The line itself
// is as it was: `UserDefaults(suiteName:)` is the suite store (edit 2), and a group suite is one
// file that every app of the user opens.
struct StreakWidget {
    @AppStorage("streak", store: UserDefaults(suiteName: "group.com.rizq.app")) var streak = 0

    /// What the widget shows.
    var text: String { "🔥 \(streak) day\(streak == 1 ? "" : "s")" }
}
