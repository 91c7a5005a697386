#if CLI
import Foundation
import RizqCore
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// `docker-credential-rizq store|get|erase|list`: docker's credential helper on the secret chain
/// (``RegistryCredentialStore``). `"credsStore": "rizq"` in `~/.docker/config.json` is the whole
/// set-up; docker runs it once per request.
///
/// As docker-credential-helpers' protocol has it: `store` reads `{"ServerURL", "Username",
/// "Secret"}` on standard input; `get` and `erase` read the server URL; `get` prints that object,
/// `list` prints `{"URL": "user", …}`. A registry with no login is `get`'s exact message
/// `credentials not found in native keychain` on standard output, exit 1 (docker's client reads
/// it there). Every other failure is one line on standard error — and on standard output, where
/// docker's client looks for it — naming what was refused, never a secret; exit 1, or 2 for a
/// usage error. The process cannot be dumped or traced, and logs nothing.
@main
enum DockerCredentialMain {
    static let usage = "usage: docker-credential-rizq [--service NAME] store|get|erase|list (docker runs it for '\"credsStore\": \"rizq\"' in ~/.docker/config.json), or import [--dry-run] HELPER (another helper's logins: pass, secretservice, or its path); see docker-credential-rizq(1)"
    /// The message docker's client takes for "no such login" (docker-credential-helpers'
    /// `errCredentialsNotFoundMessage`).
    static let notFound = "credentials not found in native keychain"
    /// The largest request read: 1 MiB (a login is a few hundred bytes, an identity token a few KiB).
    static let maximumInput = 1 << 20

    static func main() {
        _ = ProcessMemory.refuseDumps()
        let line = HelperCommandLine(
            Array(CommandLine.arguments.dropFirst()), program: "docker-credential-rizq", usage: usage,
            defaultService: RegistryCredentialStore.defaultService)
        if line.action == "import" {
            let dryRun = line.arguments.contains("--dry-run")
            let helpers = line.arguments.filter { $0 != "--dry-run" }
            guard helpers.count == 1 else { HelperStreams.fail("docker-credential-rizq", 2, "import takes one helper; \(usage)") }
            exit(DockerCredentialImport.run(helper: helpers[0], dryRun: dryRun, store: RegistryCredentialStore(service: line.service)))
        }
        line.requireAction(among: ["store", "get", "erase", "list"], sentBy: "docker", program: "docker-credential-rizq", usage: usage)
        let (service, action) = (line.service, line.action)
        var input: [UInt8] = []
        if action != "list" {
            guard let read = HelperStreams.readInput(limit: maximumInput, stopAtBlankLine: false) else {
                fail(1, "refused the request: the input is over \(maximumInput) bytes; a login is a few hundred; nothing was written")
            }
            input = read
        }
        var configuration = SecretStoreConfiguration()
        configuration.asksOnTerminal = isatty(STDERR_FILENO) != 0
        let store = RegistryCredentialStore(service: service, configuration: configuration)
        let request = action == "store" ? Request.login(login(from: input)) : .server(action == "list" ? "" : serverURL(from: input))
        do throws(SecretError) {
            switch (action, request) {
            case ("store", .login(let login)): try store.store(login)
            case ("get", .server(let url)): try get(url, from: store)
            case ("erase", .server(let url)): try store.erase(server: url)
            default: HelperStreams.writeOutput(json(try store.list()) + "\n")
            }
        } catch {
            fail(1, "\(action) failed: \(error.description)")
        }
    }

    /// What a request carries.
    private enum Request {
        case login(RegistryCredential)
        case server(String)
    }

    /// Prints the login of `url`, or docker's not-found message (exit 1).
    private static func get(_ url: String, from store: RegistryCredentialStore) throws(SecretError) {
        guard let login = try store.credential(forServer: url) else {
            HelperStreams.writeOutput(notFound + "\n")
            exit(1)
        }
        HelperStreams.writeOutput(json(login) + "\n")
    }

    /// The login `store` was given; a request docker's protocol refuses exits here, with the
    /// protocol's own message where it has one ("no credentials server URL", "no credentials
    /// username", which docker's client recognises).
    private static func login(from input: [UInt8]) -> RegistryCredential {
        struct Fields: Decodable {
            var serverURL: String?
            var username: String?
            var secret: String?
            enum CodingKeys: String, CodingKey {
                case serverURL = "ServerURL", username = "Username", secret = "Secret"
            }
        }
        if input.contains(0) { fail(1, "refused the request: it holds a NUL byte; nothing was written") }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(input)) else {
            fail(1, "refused the request: it is not docker's {\"ServerURL\", \"Username\", \"Secret\"} JSON object, each a string; nothing was written")
        }
        guard let url = fields.serverURL, !url.isEmpty else { fail(1, "no credentials server URL", protocolMessage: true) }
        guard let username = fields.username, !username.isEmpty else { fail(1, "no credentials username", protocolMessage: true) }
        return RegistryCredential(serverURL: url, username: username, secret: fields.secret ?? "")
    }

    /// The server URL `get` or `erase` was given (surrounding white space dropped, as docker's
    /// helpers do).
    private static func serverURL(from input: [UInt8]) -> String {
        guard let text = String(validating: input, as: UTF8.self), !input.contains(0) else {
            fail(1, "refused the request: the server URL is not UTF-8 text without NUL bytes")
        }
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if url.isEmpty { fail(1, "no credentials server URL", protocolMessage: true) }
        return url
    }

    /// `value` as compact JSON with sorted keys (what docker's client decodes).
    private static func json<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Prints `message` on standard error and standard output (where docker's client reads a
    /// helper's error: the bare message when it is one of the protocol's) and exits with `status`.
    private static func fail(_ status: Int32, _ message: String, protocolMessage: Bool = false) -> Never {
        HelperStreams.writeOutput(protocolMessage ? message + "\n" : "docker-credential-rizq: \(message)\n")
        HelperStreams.fail("docker-credential-rizq", status, message)
    }
}
#endif
