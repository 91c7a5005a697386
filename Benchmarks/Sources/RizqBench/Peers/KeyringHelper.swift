import Foundation

/// Python's `keyring`, a peer: Benchmarks/Helpers/keyring_get.py (its Secret Service backend,
/// for `secret-get`) or keyring_alt_get.py (keyrings.alt's encrypted file, for `vault-get`) in a
/// long-lived process of its own, timing its calls itself (so that starting Python is not
/// charged to it).
final class KeyringHelper {
    private let child: ChildProcess

    init(python: String, script: String, service: String, account: String, token: String, arguments: [String] = []) throws {
        child = try ChildProcess(python, [script, service, account] + arguments)
        try child.send(token)
        guard child.readLine() == "ready" else { throw BenchError("the keyring helper did not start") }
    }

    /// Per-call times of `calls` `keyring.get_password` calls, in nanoseconds.
    func time(calls: Int) throws -> [Double] {
        try child.send("\(calls)")
        guard let line = child.readLine() else { throw BenchError("the keyring helper ended") }
        let times = line.split(separator: " ").compactMap { Double($0) }
        guard times.count == calls else { throw BenchError("the keyring helper answered \(times.count) of \(calls) calls") }
        return times
    }

    func stop() {
        try? child.send("quit")
        _ = try? child.wait()
    }
}
