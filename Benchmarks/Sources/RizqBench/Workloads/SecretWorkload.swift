import CBenchGLib
import Foundation
import RizqSecrets

/// `secret-get`: a read of an existing token. Ours: `SecretServiceStore.secretBytes(forAccount:)`.
/// Floors, from this process over the same kept session-bus connection to the same
/// gnome-keyring: a bare `GetSecrets` of the item (the one call a read must make, in a "plain"
/// session) and a bare `Peer.Ping` (a round trip that does nothing). Peers: Python's
/// `keyring.get_password` and a `secret-tool lookup` process. Rounds interleave them all, so
/// that all see the same machine and the same daemon.
enum SecretWorkload {
    static let service = "com.rizq.bench"
    static let account = "auth_token"
    /// A stand-in for a sign-in token: the length of a typical JWT.
    static let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "x", count: 160) + ".bench"

    struct Options {
        var rounds: Int
        var callsPerRound: Int
        var spawnsPerRound: Int
        var warmupRounds: Int
    }

    static func run(options: Options, python: String?, helper: String?) throws -> BenchResult {
        let store = SecretServiceStore(service: service)
        try store.setSecret(token, forAccount: account)
        defer { _ = try? store.deleteSecret(forAccount: account) }
        _ = try withGLibError { bench_secret_prepare(service, account, $0, $1) != 0 ? true : nil }

        // A peer that fails costs only its column (its reason kept; the others go on).
        var failures: [String: String] = [:]
        var keyring: KeyringHelper?
        if let python {
            do {
                guard let helper else { throw BenchError("set RIZQ_BENCH_KEYRING_HELPER with RIZQ_BENCH_PYTHON") }
                keyring = try KeyringHelper(python: python, script: helper, service: service, account: "python-" + account, token: token)
            } catch {
                failures["python"] = "\(error)"
            }
        }
        defer { keyring?.stop() }
        func peer(_ name: String, _ body: () throws -> [Double]) -> [Double] {
            guard failures[name] == nil else { return [] }
            do {
                return try body()
            } catch {
                failures[name] = "\(error)"
                return []
            }
        }

        let handOver = HandOver()
        var samples: [String: [Double]] = [:]
        for round in 0..<(options.warmupRounds + options.rounds) {
            var roundSamples: [String: [Double]] = [:]
            for _ in 0..<options.callsPerRound {
                var value: Data?
                roundSamples["ours", default: []].append(try elapsedNanoseconds { value = try store.secretBytes(forAccount: account) })
                guard value == Data(token.utf8) else { throw BenchError("SecretServiceStore read another value") }
            }
            for _ in 0..<options.callsPerRound {
                var length = 0
                roundSamples["get-secrets", default: []].append(try elapsedNanoseconds {
                    length = try withGLibError { error, size in
                        let length = bench_secret_get(error, size)
                        return length >= 0 ? length : nil
                    }
                })
                guard length == token.utf8.count else { throw BenchError("GetSecrets returned \(length) bytes") }
            }
            for _ in 0..<options.callsPerRound {
                var length = 0
                roundSamples["libsecret", default: []].append(try elapsedNanoseconds {
                    length = try withGLibError { error, size in
                        let length = bench_libsecret_get(error, size)
                        return length >= 0 ? length : nil
                    }
                })
                guard length == token.utf8.count else { throw BenchError("libsecret returned \(length) bytes") }
            }
            for _ in 0..<options.callsPerRound {
                roundSamples["hand-over", default: []].append(elapsedNanoseconds { handOver.roundTrip() })
            }
            for _ in 0..<options.callsPerRound {
                roundSamples["ping", default: []].append(try elapsedNanoseconds {
                    _ = try withGLibError { bench_bus_ping("org.freedesktop.secrets", "/org/freedesktop/secrets", $0, $1) != 0 ? true : nil }
                })
            }
            if let keyring { roundSamples["python"] = peer("python") { try keyring.time(calls: options.callsPerRound) } }
            roundSamples["secret-tool"] = peer("secret-tool") { try (0..<options.spawnsPerRound).map { _ in try secretToolLookup() } }
            if round >= options.warmupRounds {
                samples.merge(roundSamples) { $0 + $1 }
            }
        }

        let medians = Medians(figures: samples.filter { !$0.value.isEmpty }.mapValues(median), failures: failures)
        var result = BenchResult(workload: "secret-get", size: 1, ours: medians.of("ours"))
        result.floor("bare GetSecrets of the item (D-Bus)", medians.of("get-secrets"))
        result.floor("bare Peer.Ping to gnome-keyring (D-Bus)", medians.of("ping"))
        // Not floors but the parts of a read above the bare call, timed alone (docs/performance.md).
        result.floor("libsecret's read of the item path, on this thread", medians.of("libsecret"))
        result.floor("hand-over to a worker thread and back (empty)", medians.of("hand-over"))
        if python != nil { result.peer("python keyring.get_password", "python", in: medians) }
        result.peer("secret-tool lookup (a process)", "secret-tool", in: medians)
        return result
    }

    /// One `secret-tool lookup` process, from start to exit, its output checked.
    private static func secretToolLookup() throws -> Double {
        var result: (status: Int32, output: Data) = (0, Data())
        let elapsed = try elapsedNanoseconds {
            result = try spawnAndWait("/usr/bin/secret-tool", ["lookup", "service", service, "account", account])
        }
        guard result.status == 0, result.output == Data(token.utf8) else {
            throw BenchError("secret-tool lookup failed (status \(result.status))")
        }
        return elapsed
    }
}

/// An empty hand-over to a serial queue and back, as `SecretWorker.run` makes one for every
/// call: an async block that signals a semaphore the caller waits on.
private final class HandOver: Sendable {
    private let queue = DispatchQueue(label: "RizqBench.hand-over", qos: .userInitiated)

    func roundTrip() {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        done.wait()
    }
}
