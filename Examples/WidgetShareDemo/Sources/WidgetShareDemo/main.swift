import Foundation
import RizqPrefs

// Both processes open the same app-group suite: the same file, whatever their app id.
let group: SuiteStore
do {
    group = try SuiteStore(suite: "group.com.rizq.app")
} catch {
    print("cannot open the shared suite: \(error)")
    exit(1)
}
let rounds = 5

/// Unbuffered, so that the two processes' lines interleave as they happen.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The widget: shows the streak, then every new value another process writes, as it arrives.
func runWidget() async {
    say("[widget \(getpid())] streak is \(group.integer(forKey: "current_streak"))")
    var seen = 0
    for await streak in group.changes(forKey: "current_streak", as: Int.self) {
        say("[widget \(getpid())] streak changed to \(streak.map(String.init) ?? "unset")")
        seen += 1
        if seen == rounds { break }
    }
}

/// The app: bumps the streak a few times, each change flushed so the widget sees it at once.
func runApp() async {
    for _ in 0..<rounds {
        try? await Task.sleep(for: .milliseconds(300))
        let streak = group.integer(forKey: "current_streak") + 1
        group.set(streak, forKey: "current_streak")
        do { try group.flush() } catch { say("[app] \(error)") }
        say("[app \(getpid())] wrote streak \(streak)")
    }
}

switch CommandLine.arguments.dropFirst().first {
case "widget":
    await runWidget()
case "app":
    await runApp()
default:
    // Start the widget as a second process, then act as the app.
    let widget = Process()
    widget.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    widget.arguments = ["widget"]
    do { try widget.run() } catch {
        print("cannot start the widget process: \(error)")
        exit(1)
    }
    try? await Task.sleep(for: .milliseconds(500))
    await runApp()
    widget.waitUntilExit()
}
