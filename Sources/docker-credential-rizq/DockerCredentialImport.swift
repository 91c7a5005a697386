#if CLI
import Dispatch
import Foundation
import RizqSecrets

/// `docker-credential-rizq import [--dry-run] HELPER`: the logins another docker credential
/// helper keeps (`pass` for docker-credential-pass, `secretservice`, or a helper's path), read
/// through that helper's own protocol — `list`, then `get` for each registry — and stored on the
/// chain; with `--dry-run`, only listed. Each login is printed as its registry and user, never
/// its secret. The other helper is not changed: the last line says how to switch docker to this
/// one.
struct DockerCredentialImport {
    /// The largest answer read from the other helper: 1 MiB.
    static let maximumAnswer = 1 << 20
    /// How long one request to the other helper may take (it may wait for gpg-agent).
    static let timeout: Double = 60

    /// What went wrong, in words for standard error.
    struct Failure: Error {
        var message: String
    }

    /// The helper program `name` names: a path as it is, else `docker-credential-NAME` on `PATH`
    /// (as docker finds `credsStore`).
    static func program(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(Failure) -> String {
        if name.contains("/") { return name }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }) else {
            throw Failure(message: "'\(name.prefix(64))' is not a helper's name; give the word after docker-credential- (pass, secretservice) or the helper's path")
        }
        if name == "rizq" { throw Failure(message: "that is this helper; give the one to import from (pass, secretservice, or a path)") }
        let file = "docker-credential-" + name
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where folder.hasPrefix("/") {
            let path = folder + "/" + file
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(message: "no \(file) on PATH; install it, or give its path")
    }

    /// Runs `program action` with `input` on its standard input: its standard output, bounded.
    static func ask(_ program: String, _ action: String, input: String) throws(Failure) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [action]
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch { throw Failure(message: "could not run \(program): \(error.localizedDescription)") }
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let errors = DispatchQueue(label: "docker-credential-rizq.import.stderr")
        nonisolated(unsafe) var complaint = Data()
        errors.async { complaint = (try? stderr.fileHandleForReading.read(upToCount: 4_096)) ?? Data() }
        let output = (try? stdout.fileHandleForReading.read(upToCount: maximumAnswer + 1)) ?? Data()
        if output.count > maximumAnswer, process.isRunning { process.terminate() }
        process.waitUntilExit()
        errors.sync {}
        if output.count > maximumAnswer { throw Failure(message: "\(program) \(action) answered more than \(maximumAnswer >> 20) MiB; nothing more was read") }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = String(decoding: (output.isEmpty ? complaint : output).prefix(300), as: UTF8.self)
                .unicodeScalars.filter { $0.properties.generalCategory != .control }.map(String.init).joined()
            let how = process.terminationReason == .exit ? "exited with status \(process.terminationStatus)" : "was stopped after \(Int(timeout)) s or by a signal"
            throw Failure(message: "\(program) \(action) \(how)\(said.isEmpty ? "" : ": \(said)")")
        }
        return output
    }

    /// The logins `program` keeps, sorted by registry.
    static func logins(of program: String) throws(Failure) -> [RegistryCredential] {
        guard let listed = try? JSONDecoder().decode([String: String].self, from: ask(program, "list", input: "")) else {
            throw Failure(message: "\(program) list did not answer docker's {\"URL\": \"user\"} JSON object")
        }
        var logins: [RegistryCredential] = []
        for url in listed.keys.sorted() {
            if let problem = RegistryCredential.problem(withServerURL: url) { throw Failure(message: "\(program) list named a registry that cannot be one: \(problem)") }
            guard let login = try? JSONDecoder().decode(RegistryCredential.self, from: ask(program, "get", input: url + "\n")) else {
                throw Failure(message: "\(program) get \(url) did not answer docker's {\"ServerURL\", \"Username\", \"Secret\"} JSON object")
            }
            // Kept under the name the list gave, which docker asks for.
            logins.append(RegistryCredential(serverURL: url, username: login.username, secret: login.secret))
        }
        return logins
    }

    /// Imports from the helper `name` into `store` (or only lists, when `dryRun`): the exit status.
    static func run(helper name: String, dryRun: Bool, store: RegistryCredentialStore) -> Int32 {
        let program: String
        var logins: [RegistryCredential]
        do throws(Failure) {
            program = try Self.program(name)
            logins = try Self.logins(of: program)
        } catch {
            complain("docker-credential-rizq: \(error.message); nothing was imported")
            return 1
        }
        defer { for index in logins.indices { logins[index].secret = "" } }
        for login in logins {
            let name = "\(login.serverURL) (\(login.username))"
            if dryRun {
                print("would import \(name)")
                continue
            }
            do throws(SecretError) {
                try store.store(login)
                print("imported \(name)")
            } catch {
                complain("docker-credential-rizq: could not store \(name): \(error.description); nothing after it was imported")
                return 1
            }
        }
        print("\(dryRun ? "would import" : "imported") \(logins.count) login\(logins.count == 1 ? "" : "s") from \(program)")
        if !dryRun && !logins.isEmpty {
            print("\(program) still holds them: set \"credsStore\": \"rizq\" in ~/.docker/config.json, check 'docker login', then erase them there")
        }
        return 0
    }

    /// `message` on standard error.
    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
#endif
