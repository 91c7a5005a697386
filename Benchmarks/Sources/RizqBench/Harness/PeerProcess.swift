import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A peer run in a process of its own: `RizqBench peer WORKLOAD SIZE PEER`, set up there
/// (its own copy of the data: ``FoundationFixture``, ``GSettingsSuite``) and asked for one
/// sample at a time over a pipe, so that the sampler still interleaves it with ours and the
/// floors sample by sample.
///
/// Why a process: a peer that crashes — GLib aborts a process on an assertion of its own, and
/// Foundation traps — must cost only its column. Here its death is a failed sample (``sample()``
/// throws with the reason: the signal or status, and the last line it wrote on standard error,
/// kept in a log file of its own), the sampler drops it (``Contender/isPeer``), and ours and the
/// floors go on. It also keeps the peers' heaps out of ours (a peer that frees millions of
/// objects made our next large allocations pay for it: docs/performance.md, "One process per
/// workload").
///
/// The child times its own work and prints the figure: the pipe is outside every timing.
final class PeerProcess {
    let workload: String
    let size: Int
    let peer: String
    private let child: ChildProcess?
    private let logPath: String
    private var failure: String?

    /// Starts the peer's process and waits until it is set up; a failure to start or to set up
    /// is kept and thrown by the first ``sample()`` (so that it lands in the peer's column).
    init(workload: String, size: Int, peer: String, home: BenchHome, options: Options) {
        self.workload = workload
        self.size = size
        self.peer = peer
        logPath = home.path + "/peer-\(workload)-\(size)-\(peer).log"
        var arguments = ["peer", workload, String(size), peer]
        if options.quick { arguments.append("--quick") }
        do {
            let child = try ChildProcess(selfPath(), arguments, errorPath: logPath)
            self.child = child
            let line = child.readLine()
            if line != "ready" { failure = line.flatMap(Self.reportedFailure) ?? ended(child, "while setting up") }
        } catch {
            child = nil
            failure = "could not start its process: \(error)"
        }
    }

    deinit {
        if let child { _ = try? child.wait() }
    }

    /// One sample's figure, as the peer's process measured it.
    func sample() throws -> Double {
        let line = try sampleLine()
        guard let figure = Double(line) else { throw fail("printed '\(line)' for a sample") }
        return figure
    }

    /// One sample's line, for a peer that reports more than one figure (`cross-process`).
    func sampleLine() throws -> String {
        if let failure { throw BenchError(failure) }
        guard let child else { throw fail("has no process") }
        do {
            try child.send("sample")
        } catch {
            throw fail(ended(child, "before a sample"))
        }
        guard let line = child.readLine() else { throw fail(ended(child, "during a sample")) }
        if let reported = Self.reportedFailure(line) { throw fail(reported) }
        return line
    }

    /// Ends the peer's process (its clean-up runs: GSettings' values leave dconf).
    func stop() {
        _ = try? child?.wait()
    }

    private func fail(_ reason: String) -> BenchError {
        failure = reason
        return BenchError(reason)
    }

    /// What a child that reported its own failure said ("error …").
    private static func reportedFailure(_ line: String) -> String? {
        line.hasPrefix("error ") ? String(line.dropFirst("error ".count)) : nil
    }

    /// Why the child's output ended: how it ended, and the last line it wrote on standard error.
    private func ended(_ child: ChildProcess, _ when: String) -> String {
        let status = (try? child.wait()) ?? -1
        var how: String
        if let signal = child.terminationSignal {
            how = "its process was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        } else {
            how = "its process exited with status \(status)"
        }
        how += " \(when)"
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        if let last = log.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            how += ": " + last.trimmingCharacters(in: .whitespaces)
        }
        return how
    }

    // MARK: The child

    /// The child's side (`RizqBench peer WORKLOAD SIZE PEER [--quick]`): sets the peer up
    /// (``PeerCatalog``), says "ready", then answers each "sample" line with the figure (or
    /// "error REASON"), until its input ends.
    static func serve(arguments: [String]) throws {
        guard arguments.count >= 3, let size = Int(arguments[1]) else { throw BenchError("peer WORKLOAD SIZE PEER [--quick]") }
        let options = try Options(arguments: Array(arguments.dropFirst(3)))
        guard let path = ProcessInfo.processInfo.environment["RIZQ_BENCH_HOME"] else { throw BenchError("RIZQ_BENCH_HOME is not set") }
        let sample: () throws -> String
        do {
            sample = try PeerCatalog.sampler(workload: arguments[0], size: size, peer: arguments[2], home: BenchHome(path: path), options: options)
        } catch {
            say("error \(error)")
            return
        }
        say("ready")
        while let line = readLine() {
            guard line == "sample" else { continue }
            do {
                say(try sample())
            } catch {
                say("error \(error)")
            }
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
    }
}

extension Contender {
    /// A peer measured in a process of its own (``PeerProcess``).
    static func peer(_ name: String, _ process: PeerProcess) -> Contender {
        .peer(name) { try process.sample() }
    }
}
