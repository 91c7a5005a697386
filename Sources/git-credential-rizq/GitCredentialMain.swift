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
    static let usage = "usage: git-credential-rizq [--service NAME] get|store|erase (git runs it for 'git config credential.helper rizq'; see git-credential-rizq(1))"

    static func main() {
        _ = ProcessMemory.refuseDumps()
        var arguments = Array(CommandLine.arguments.dropFirst())
        var service = NetworkCredentialStore.defaultService
        if arguments.first == "--help" || arguments.first == "-h" {
            print(usage)
            exit(0)
        }
        if arguments.first == "--service" {
            guard arguments.count >= 2, !arguments[1].isEmpty else { fail(2, "--service needs a name; \(usage)") }
            service = arguments[1]
            arguments.removeFirst(2)
        }
        guard arguments.count == 1, let action = arguments.first else { fail(2, usage) }
        guard ["get", "store", "erase"].contains(action) else {
            let named = action.count <= 32 && action.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            fail(2, "\(named ? "'\(action)'" : "the action given") is not an action git sends; \(usage)")
        }
        let request: GitCredentialRequest
        do {
            request = try GitCredentialRequest(parsing: readRequest())
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
        var bytes = Array(answer.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Standard input up to a blank line or its end, at most GitCredentialRequest.maximumInput
    /// bytes (more is refused before it is parsed).
    private static func readRequest() throws(GitCredentialRequest.Refusal) -> [UInt8] {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let searchFrom = Swift.max(0, input.count - 1)
            input += chunk[..<count]
            if input.count > GitCredentialRequest.maximumInput {
                throw GitCredentialRequest.Refusal(reason: "the input is over \(GitCredentialRequest.maximumInput) bytes; git sends a few hundred")
            }
            if endsRequest(input, from: searchFrom) { break }
        }
        return input
    }

    /// Whether `input` holds the blank line that ends a request (it may start with it), looking
    /// from `start` on (what came before was looked at already).
    private static func endsRequest(_ input: [UInt8], from start: Int) -> Bool {
        if input.first == UInt8(ascii: "\n") { return true }
        var index = start
        while index + 1 < input.count {
            if input[index] == UInt8(ascii: "\n") && input[index + 1] == UInt8(ascii: "\n") { return true }
            index += 1
        }
        return false
    }

    /// Prints `message` on stderr and exits with `status`.
    private static func fail(_ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("git-credential-rizq: \(message)\n".utf8))
        exit(status)
    }
}
#endif
