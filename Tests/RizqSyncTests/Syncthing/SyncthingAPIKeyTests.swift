import Foundation
@testable import RizqSync
import RizqTestSupport
import XCTest

/// Issue 50, item 5: the Syncthing API key went in clear HTTP to whatever listened on the
/// loopback port Syncthing's `config.xml` names: another local user who took the port while
/// Syncthing was down got full control of this user's Syncthing. The key goes now only to a
/// listener run by the user who owns the configuration (the kernel's socket table says who
/// accepted the connection, before a byte is sent). Real listeners: one run as `nobody`
/// (`runuser`), one as this user.
final class SyncthingAPIKeyTests: XCTestCase {
    private let key = "api-key-\(UUID().uuidString)"

    /// A one-connection HTTP listener on a loopback port run by `user` (nil: this user): its port,
    /// and the file it writes the request it received to.
    private func listener(as user: String?, in folder: String) throws -> (process: Process, port: Int, received: String) {
        let received = folder + "/received-\(user ?? "self")"
        let script = #"""
            import socket, sys
            server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
            print(server.getsockname()[1], flush=True)
            connection, _ = server.accept(); connection.settimeout(10)
            data = b""
            try:
                while b"\r\n\r\n" not in data:
                    part = connection.recv(4096)
                    if not part: break
                    data += part
            except Exception:
                pass
            open(sys.argv[1], "wb").write(data)
            if data: connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}")
            connection.close()
            """#
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", "/usr/bin/python3", "-c", script, received]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, received]
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = ""
        readLines(of: output.fileHandleForReading) { line = $0; return false }
        return (process, Int(line.trimmingCharacters(in: .whitespaces)) ?? 0, received)
    }

    private func configuration(_ home: String, port: Int) throws {
        let xml = "<configuration><gui enabled=\"true\" tls=\"false\"><address>127.0.0.1:\(port)</address><apikey>\(key)</apikey></gui></configuration>\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: home + "/config.xml", contents: Data(xml.utf8), attributes: [.posixPermissions: 0o600]))
    }

    func testTheAPIKeyGoesOnlyToAListenerOfTheConfigurationsOwner() throws {
        try XCTSkipUnless(geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser"), "needs root and runuser")
        let folder = NSTemporaryDirectory() + "rizq-apikey-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let home = folder + "/syncthing"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        // Another user took the port.
        let squatter = try listener(as: "nobody", in: folder)
        XCTAssertGreaterThan(squatter.port, 0)
        try configuration(home, port: squatter.port)
        let api = try SyncthingAPI(home: home)
        XCTAssertThrowsError(try api.call("GET", "/rest/system/version")) { error in
            XCTAssertTrue("\(error)".contains("belongs to user 65534"), "\(error)")
        }
        squatter.process.waitUntilExit()
        let stolen = (try? String(contentsOfFile: squatter.received, encoding: .utf8)) ?? ""
        XCTAssertFalse(stolen.contains(key), "the key reached another user's listener: \(stolen)")

        // Syncthing's own (this user's) listener gets it.
        let own = try listener(as: nil, in: folder)
        try configuration(home, port: own.port)
        XCTAssertEqual(try SyncthingAPI(home: home).call("GET", "/rest/system/version"), Array("{}".utf8))
        own.process.waitUntilExit()
        XCTAssertTrue(((try? String(contentsOfFile: own.received, encoding: .utf8)) ?? "").contains("X-API-Key: \(key)"))
    }
}
