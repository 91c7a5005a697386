// The RIZQ web app's localStorage, moved into typed suites and the Secret Service, then read
// back the way the native app reads its settings.
//
//   ImportRizqWeb import DUMP PLAN [--dry-run] [--force]   runs the import through RizqImport
//   ImportRizqWeb show                                     reads the imported values back
//
// Uses RIZQ_PREFS_HOME when set (scripts/demo-import runs it on a temporary home, inside a
// private keyring session).
import Foundation
import RizqImport
import RizqPrefs
import RizqSecrets

SuiteStore.configure(appID: "com.rizq.app")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func runImport(_ arguments: [String]) {
    let paths = arguments.filter { !$0.hasPrefix("--") }
    guard paths.count == 2 else { fail("usage: ImportRizqWeb import DUMP PLAN [--dry-run] [--force]") }
    do {
        let dump = try ImportDump(contentsOfFile: paths[0])
        let plan = try ImportPlan(contentsOfFile: paths[1])
        let options = Importer.Options(dryRun: arguments.contains("--dry-run"), force: arguments.contains("--force"))
        let report = try Importer(plan: plan, options: options).run(dump)
        print(report.text, terminator: "")
    } catch {
        fail("import failed: \(error)")
    }
}

func show() {
    let settings = ImportedSettings()
    print("welcome shown:      \(settings.welcomeShown)")
    print("last used provider: \(settings.lastUsedProvider ?? "none")")
    print("theme:              \(settings.themeMode)")
    if let profile = settings.profile {
        print("profile:            \(profile.displayName), level \(profile.level), streak \(profile.streak), \(profile.totalXp) XP")
    } else {
        print("profile:            none")
    }
    let habits = settings.habits
    print("active journeys:    \(habits.activeJourneyIds)")
    for habit in habits.customHabits {
        print("custom habit:       \(habit.duaTitle) (dua \(habit.duaId), \(habit.timeSlot.rawValue))")
    }
    for day in habits.habitCompletions.keys.sorted() {
        print("completed on \(day): duas \(habits.habitCompletions[day] ?? [])")
    }
    for day in settings.dailyActivity.keys.sorted() {
        let activity = settings.dailyActivity[day]
        print("activity \(day):   \(activity?.xpEarned ?? 0) XP, duas \(activity?.duasCompleted ?? [])")
    }
    // The Firebase session went to the Secret Service, not to a suite file: say so, without
    // printing it.
    do {
        let secret = try SecretServiceStore(service: "com.rizq.app").secret(forAccount: "firebase_auth_user")
        let inSuites = [SuiteStore.standard.location.path, ImportedSettings.activity.location.path].contains { path in
            (try? String(contentsOfFile: path, encoding: .utf8))?.contains("stsTokenManager") == true
        }
        print("firebase session:   \(secret.map { "in the Secret Service (\($0.utf8.count) bytes)" } ?? "missing"); in a suite file: \(inSuites ? "YES (bug)" : "no")")
    } catch {
        print("firebase session:   cannot read the Secret Service: \(error)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "import": runImport(Array(arguments.dropFirst()))
case "show", nil: show()
default: fail("usage: ImportRizqWeb [import DUMP PLAN [--dry-run] [--force] | show]")
}
