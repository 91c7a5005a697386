// A small server-style program: its settings come from environment variables, then its suite,
// then its secrets (ChainedSecretStore: a systemd credential on a server, the keyring on a
// desktop, the vault elsewhere), with a default in the code for anything none of them has. It then
// watches `http.timeout` and prints each new value as another process (`rizq-prefs set`)
// changes it, without a restart.
//
//   swift run ConfigServer                  # runs until Ctrl-C
//   swift run ConfigServer --changes 1      # stops after one change (what scripts/demo runs)
import Configuration
import Foundation
import RizqConfiguration
import RizqPrefs
import RizqSecrets

let appID = ProcessInfo.processInfo.environment["RIZQ_PREFS_APP_ID"] ?? "com.rizq.server"
let arguments = CommandLine.arguments
let stopAfter = arguments.firstIndex(of: "--changes").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }

let config: ConfigReader
do {
    config = ConfigReader(providers: [
        EnvironmentVariablesProvider(),                              // HTTP_PORT=9000 wins over the rest
        try SuiteStoreProvider(suite: appID, appID: appID),          // the app's suite: http.timeout, …
        // database.password, …: $CREDENTIALS_DIRECTORY/<app id>.database.password under systemd
        // (LoadCredentialEncrypted=), else the Secret Service or the vault: the same binary.
        SecretStoreProvider(store: ChainedSecretStore(service: appID)),
    ])
} catch {
    FileHandle.standardError.write(Data("ConfigServer: cannot open the suite: \(error)\n".utf8))
    exit(1)
}

say("ConfigServer (\(appID)) starts with:")
say(ServerSettings(config).description)

try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
    var first = true
    var changes = 0
    for await timeout in updates {
        if first {
            first = false
            say("watching http.timeout (now \(timeout)); change it with: rizq-prefs set --app \(appID) http.timeout 45 --int")
            say("ready")
        } else {
            say("http.timeout changed: \(timeout) (no restart)")
            changes += 1
            if let stopAfter, changes >= stopAfter { break }
        }
    }
}

/// One line on stdout at once (not block-buffered in a pipe), so that a script reading it sees
/// "ready" as soon as the watch has started.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
