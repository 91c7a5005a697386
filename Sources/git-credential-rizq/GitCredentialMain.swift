#if CLI
import Foundation
import RizqCore
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// `git-credential-rizq [--service NAME] get|store|erase`: git's credential helper on the secret
/// chain (``NetworkCredentialStore``). `git config --global credential.helper rizq` is the whole
/// set-up; git runs it once per request, the request on standard input (``GitCredentialRequest``).
///
/// `get` prints `username=`, `password=` and, when kept, `password_expiry_utc=` and
/// `oauth_refresh_token=` lines, or nothing when there is no credential that has not expired (git
/// then asks the next helper or the user); `store` keeps what git sends; `erase` removes it.
/// Exit statuses: 0 done (a `get` that found nothing included), 1 a request refused or a store
/// that failed (one line on stderr, naming what, never a value), 2 a usage error. The process
/// cannot be dumped or traced, and logs nothing.
@main
enum GitCredentialMain {
    static let usage =
        "usage: git-credential-rizq [--service NAME] get|store|erase (git runs it for 'git config credential.helper rizq'), or import [--dry-run] [FILE] (credential-store's file); see git-credential-rizq(1)"

    static func main() {
        _ = ProcessMemory.refuseDumps()
        let line = HelperCommandLine(
            Array(CommandLine.arguments.dropFirst()), program: "git-credential-rizq", usage: usage, defaultService: NetworkCredentialStore.defaultService)
        let service = line.service
        if line.action == "import" {
            let dryRun = line.arguments.contains("--dry-run")
            let files = line.arguments.filter { $0 != "--dry-run" }
            guard files.count <= 1 else { fail(2, "import takes one file; \(usage)") }
            let store = NetworkCredentialStore(service: service)
            exit(GitCredentialImport.run(file: files.first ?? GitCredentialImport.defaultFile(), dryRun: dryRun, store: store))
        }
        line.requireAction(among: ["get", "store", "erase"], sentBy: "git", program: "git-credential-rizq", usage: usage)
        let action = line.action
        guard let input = HelperStreams.readInput(limit: GitCredentialRequest.maximumInput, stopAtBlankLine: true) else {
            fail(1, "refused the request: the input is over \(GitCredentialRequest.maximumInput) bytes; git sends a few hundred; nothing was read or written")
        }
        let request: GitCredentialRequest
        do {
            request = try GitCredentialRequest(parsing: input)
        } catch {
            fail(1, "refused the request: \(error.reason); nothing was read or written")
        }
        var configuration = SecretStoreConfiguration()
        configuration.asksOnTerminal = isatty(STDERR_FILENO) != 0
        let store = NetworkCredentialStore(service: service, configuration: configuration)
        do throws(SecretError) {
            switch action {
            case "get": try get(request.credential, from: store)
            case "store": try store.store(request.credential)
            default: try store.erase(matching: request.credential)
            }
        } catch {
            fail(1, "\(action) failed: \(error.description)")
        }
    }

    /// Prints the credential found, if any.
    private static func get(_ query: NetworkCredential, from store: NetworkCredentialStore) throws(SecretError) {
        guard let found = try store.credential(matching: query) else { return }
        var answer = ""
        if let username = found.username { answer += "username=\(username)\n" }
        answer += "password=\(found.password ?? "")\n"
        if let expiry = found.expiry { answer += "password_expiry_utc=\(Int64(expiry.timeIntervalSince1970))\n" }
        if let token = found.oauthRefreshToken { answer += "oauth_refresh_token=\(token)\n" }
        HelperStreams.writeOutput(answer)
    }

    /// Prints `message` on stderr and exits with `status`.
    private static func fail(_ status: Int32, _ message: String) -> Never {
        HelperStreams.fail("git-credential-rizq", status, message)
    }
}
#endif
