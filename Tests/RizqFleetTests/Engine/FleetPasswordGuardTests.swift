import Foundation
import RizqFleet
import RizqTestSupport
import Testing

/// Issue 50, item 13: with `sslmode=prefer` (libpq's default: TLS without a certificate check,
/// or none) the role's password went out in clear text — or as MD5 — to whatever server asked
/// for it that way. A server that nobody verified gets the password only by SCRAM-SHA-256 now,
/// unless the URL names the method (`require_auth=password` or `md5`, libpq's own parameter).
/// The server here is a real process on loopback that speaks just that much of PostgreSQL's
/// protocol: it declines TLS, asks for the password the way it is told, and writes down every
/// password message it receives.
@Suite(.serialized) struct FleetPasswordGuardTests {
    /// A fake server asking for the password by `code` (3: clear text, 5: MD5); its port, and
    /// the file where it writes what password messages bring.
    private final class AskingServer {
        let process = Process()
        let port: Int
        let received: String

        init(code: Int) throws {
            received = NSTemporaryDirectory() + "rizq-fake-pg-\(UUID().uuidString.prefix(8))"
            _ = FileManager.default.createFile(atPath: received, contents: Data())
            let script = #"""
                import socket, struct, sys
                code, out = int(sys.argv[1]), sys.argv[2]
                server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(8)
                print(server.getsockname()[1], flush=True)
                def read(c, n):
                    b = b""
                    while len(b) < n:
                        part = c.recv(n - len(b))
                        if not part: raise EOFError
                        b += part
                    return b
                while True:
                    c, _ = server.accept()
                    try:
                        length, = struct.unpack("!i", read(c, 4)); body = read(c, length - 4)
                        if struct.unpack("!i", body[:4])[0] == 80877103:
                            c.sendall(b"N")
                            length, = struct.unpack("!i", read(c, 4)); read(c, length - 4)
                        c.sendall(b"R" + struct.pack("!ii", 12 if code == 5 else 8, code) + (b"salt" if code == 5 else b""))
                        kind = read(c, 1); length, = struct.unpack("!i", read(c, 4)); payload = read(c, length - 4)
                        with open(out, "ab") as f: f.write(kind + payload + b"\n")
                        error = b"SFATAL\x00C28P01\x00Mpassword authentication failed\x00\x00"
                        c.sendall(b"E" + struct.pack("!i", len(error) + 4) + error)
                    except Exception:
                        pass
                    c.close()
                """#
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, String(code), received]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var line = ""
            readLines(of: output.fileHandleForReading) { line = $0; return false }
            port = Int(line.trimmingCharacters(in: .whitespaces)) ?? 0
        }

        var messages: String { (try? String(contentsOfFile: received, encoding: .isoLatin1)) ?? "" }

        deinit {
            // SIGKILL: the child may have been started from a thread that blocks SIGTERM (the
            // mask is inherited), and then `terminate()` would leave it running and this wait
            // would never end.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: received)
        }
    }

    @Test(arguments: [(3, "password"), (5, "md5")])
    func thePasswordGoesToAnUnverifiedServerOnlyByAMethodTheURLNames(code: Int, method: String) async throws {
        let password = "the-role-password-\(UUID().uuidString.prefix(6))"
        for mode in ["prefer", "disable", "require"] {
            let server = try AskingServer(code: code)
            #expect(server.port > 0)
            let engine = try PostgresFleetEngine(url: "postgres://app@127.0.0.1:\(server.port)/settings?sslmode=\(mode)", environment: ["PGPASSWORD": password])
            do {
                _ = try await engine.changes(suite: "s", after: 0, limit: 1)
                Issue.record("a connection was made")
            } catch {
                if mode != "require" {
                    #expect(error.description.contains("the password was not sent"), "\(mode): \(error)")
                }
            }
            await engine.shutdown()
            #expect(!server.messages.contains(password), "\(mode): the password reached the server")
            #expect(!server.messages.hasPrefix("p"), "\(mode): a password message went out: \(server.messages)")
        }
        // Named: it goes out (the server here then refuses the login).
        let server = try AskingServer(code: code)
        let named = try PostgresFleetEngine(url: "postgres://app@127.0.0.1:\(server.port)/settings?sslmode=prefer&require_auth=\(method)", environment: ["PGPASSWORD": password])
        _ = try? await named.changes(suite: "s", after: 0, limit: 1)
        await named.shutdown()
        #expect(server.messages.hasPrefix("p"), "require_auth=\(method): the password message went out")
    }
}
