import Foundation
import RizqTestSupport
import XCTest

/// 8 writer processes × 250 secrets into one vault, each killed with SIGKILL at random moments
/// and restarted where its acknowledgements stopped: every secret a writer acknowledged (printed
/// `ack` after the store returned) is in the final vault with its value. Once straight into the
/// vault, once through the chain with no vault yet (the writers race to make it and to remember
/// it as the write target).
final class VaultConcurrencyTests: VaultTestCase {
    static let writers = 8
    static let perWriter = 250
    static let killsPerWriter = 4

    /// The value writer `writer` stores at `index` (as the child computes it).
    static func value(writer: Int, index: Int) -> String {
        "value-\(writer)-\(index)-\(String((writer &* 7919 &+ index &* 104_729) & 0xFFFFFF, radix: 16))"
    }

    func testEightWritersKilledAtRandomLoseNothingAcknowledged() throws {
        try requireTool("/usr/bin/age")
        let keyEnvironment = ["RIZQ_SECRETS_KEY_FILE": scratch + "/key.txt", "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]
        XCTAssertEqual(try runChild(["create", service, "key-file"], environment: keyEnvironment).status, 0)
        try runWriters(command: "writer", keyEnvironment)
    }

    /// No session bus (the child's environment has none), a key file, no vault: the chain's
    /// automatic choice is the vault, made once by whichever writer gets the lock first, and
    /// remembered once.
    func testEightWritersThroughTheChainMakeOneVaultAndLoseNothingAcknowledged() throws {
        try requireTool("/usr/bin/age")
        let keyEnvironment = ["RIZQ_SECRETS_KEY_FILE": scratch + "/key.txt", "RIZQ_SECRETS_SYSTEMD_CREDS": "0", "RIZQ_SECRETS_KEYRING_CACHE": "0"]
        try runWriters(command: "chain-writer", keyEnvironment)
        let marker = try String(contentsOfFile: folder + "/backend.json", encoding: .utf8)
        XCTAssertTrue(marker.contains(#""backend":"vault""#), marker)
    }

    private func runWriters(command: String, _ keyEnvironment: [String: String]) throws {
        let keyFile = scratch + "/key.txt"
        let environment = environment(keyEnvironment)
        let acknowledged = Acknowledgements(writers: Self.writers)
        let failures = Failures()
        let service = service
        DispatchQueue.concurrentPerform(iterations: Self.writers) { writer in
            do {
                try Self.drive(command: command, writer: writer, environment: environment, service: service, acknowledged: acknowledged)
            } catch {
                failures.add("writer \(writer): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
        let kills = acknowledged.kills
        XCTAssertEqual(kills, Self.writers * Self.killsPerWriter, "every planned kill -9 happened")
        // The final vault, read by Debian's age with the key file: every acknowledged secret.
        let decrypted = try runProcess("/usr/bin/age", ["-d", "-i", keyFile, folder + "/vault.age"])
        XCTAssertEqual(decrypted.status, 0)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: decrypted.stdout) as? [String: Any])
        let items = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        var checked = 0
        for writer in 0..<Self.writers {
            let acked = acknowledged.indices(writer)
            XCTAssertEqual(acked, Set(0..<Self.perWriter), "writer \(writer) finished every index")
            for index in acked {
                let stored = (items["w\(writer)-\(index)"]?["data"] as? String).flatMap { Data(base64Encoded: $0) }
                XCTAssertEqual(stored.map { String(decoding: $0, as: UTF8.self) }, Self.value(writer: writer, index: index), "w\(writer)-\(index)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, Self.writers * Self.perWriter)
        XCTAssertEqual(items.count, Self.writers * Self.perWriter)
        // The next write removes what killed writers left half-made.
        XCTAssertEqual(try runChild(["set", service, "last"], input: Data("x".utf8), environment: ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".vault.age.tmp-") }, [])
    }

    /// Runs one writer to the end: start it at the first index not acknowledged, read its lines,
    /// and (while kills remain) send SIGKILL after a random number of acknowledgements; a killed
    /// writer is restarted. Bounded: `killsPerWriter` kills, then one run to the end.
    static func drive(command: String, writer: Int, environment: [String: String], service: String, acknowledged: Acknowledgements) throws {
        var generator = SystemRandomNumberGenerator()
        var next = 0
        for round in 0...killsPerWriter {
            guard next < perWriter || round < killsPerWriter else { break }
            let killAfter: Int? = round < killsPerWriter ? Int.random(in: 0...12, using: &generator) : nil
            let process = Process()
            process.executableURL = URL(fileURLWithPath: child)
            process.arguments = [command, service, String(writer), String(next), String(perWriter)]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var seen = 0
            var killed = false
            try readLines(of: output.fileHandleForReading) { line in
                if line.hasPrefix("ack ") {
                    let index = Int(line.dropFirst(4)) ?? -1
                    acknowledged.add(writer: writer, index: index)
                    next = index + 1
                    seen += 1
                } else if line.hasPrefix("error ") {
                    throw ChildFailure(line: line)
                }
                // "ready" counts as a moment too: a kill before the first store.
                if let killAfter, !killed, seen >= killAfter, line == "ready" || line.hasPrefix("ack ") {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                    acknowledged.killed()
                    return false
                }
                return true
            }
            process.waitUntilExit()
            // A writer that was not killed ran to its end (a kill round ending so is counted short
            // by the caller's check of every planned kill).
            if !killed, process.terminationStatus != 0 { throw ChildFailure(line: "exit \(process.terminationStatus)") }
        }
    }

    struct ChildFailure: Error {
        var line: String
    }

    /// What the writers acknowledged, shared by the threads that read them.
    final class Acknowledgements: @unchecked Sendable {
        private let lock = NSLock()
        private var byWriter: [Set<Int>]
        private var killCount = 0

        init(writers: Int) { byWriter = Array(repeating: [], count: writers) }

        func add(writer: Int, index: Int) { lock.withLock { _ = byWriter[writer].insert(index) } }
        func killed() { lock.withLock { killCount += 1 } }
        func indices(_ writer: Int) -> Set<Int> { lock.withLock { byWriter[writer] } }
        var kills: Int { lock.withLock { killCount } }
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ failure: String) { lock.withLock { list.append(failure) } }
        var all: [String] { lock.withLock { list } }
    }
}
