import Configuration
import Foundation
import RizqMounts
import RizqPrefs
import SystemPackage

/// `mount-swap`: from kubelet's writer (a child process, ``KubeletSwapWriter``) renaming
/// `..data_tmp` onto `..data` to the new value at our watcher in this process:
/// `MountedFolder.observe(_:)`'s handler is given the snapshot on the watcher's thread (one
/// generation read whole: `readlink`, every file judged and read, `readlink` again) and reads
/// the value from it. Median and p99 of 200 swaps. A second row, `mount-swap-stream`, is the
/// same delivery through `MountedFolder.updates()` to a consuming task: what an async app (and
/// `MountedFolderProvider`'s watches) add, the hand-over to the concurrency pool.
///
/// Floor: a bare inotify waiter on the same kind of swap (``DataSwapWaiter``: `IN_MOVED_TO
/// ..data`, then open and read `..data/ping`), interleaved with ours swap by swap, each in a
/// folder of its own. Second floor (issue 51): the same waiter reading the generation whole —
/// what any reader of one consistent generation does, as ours does. Peer: swift-configuration's `ReloadingFileProvider<JSONSnapshot>` over
/// the volume's `config.json` key (it polls; 1 s here, 15 s by default), through a reader's
/// `watchSnapshot`.
///
/// Each generation holds two files: `ping` (the number) and `config.json` (`{"ping": N}`).
enum MountSwapWorkload {
    static let floorName = "..data swap → bare inotify wait + read of ..data/ping"
    /// The second floor (issue 51): the same waiter reading the generation whole, as ours must.
    static let generationFloorName = "..data swap → bare inotify wait + the generation read whole (readlink, each file listed, opened, fstat'd, read; readlink again)"

    static func run(home: BenchHome, options: Options) throws -> [BenchResult] {
        let observedFolder = try folder(home, "mount-swap-ours")
        let streamFolder = try folder(home, "mount-swap-stream")
        let floorFolder = try folder(home, "mount-swap-floor")
        let observedArrivals = ArrivalLog()
        let observation = try MountedFolder(observedFolder, sensitivity: .configuration).observe { snapshot in
            if let text = try? snapshot.text(forKey: "ping"), let value = Int(text) { observedArrivals.record(value, at: wallClockNanoseconds()) }
        }
        defer { observation.cancel() }
        let streamArrivals = ArrivalLog()
        let stream = try MountedFolder(streamFolder, sensitivity: .configuration).updates()
        let listener = Task.detached {
            for await snapshot in stream {
                if let text = try? snapshot.text(forKey: "ping"), let value = Int(text) { streamArrivals.record(value, at: wallClockNanoseconds()) }
            }
        }
        defer { listener.cancel() }
        let floorArrivals = ArrivalLog()
        let waiter = try DataSwapWaiter(folder: floorFolder, arrivals: floorArrivals)
        let generationFolder = try folder(home, "mount-swap-generation-floor")
        let generationArrivals = ArrivalLog()
        let generationWaiter = try DataSwapWaiter(folder: generationFolder, arrivals: generationArrivals, wholeGeneration: true)
        let latencies = try rounds(
            [(observedFolder, observedArrivals, "ours"), (streamFolder, streamArrivals, "ours through updates()"), (floorFolder, floorArrivals, "floor"),
             (generationFolder, generationArrivals, "generation floor")],
            warmup: options.crossProcessWarmup, measured: options.crossProcessRounds, lostAfter: options.lostAfter)
        try waiter.stop()
        try generationWaiter.stop()
        let floor = latencies[2]
        let generationFloor = latencies[3]

        var rows: [BenchResult] = []
        for (workload, ours) in [("mount-swap", latencies[0]), ("mount-swap-stream", latencies[1])] {
            var result = BenchResult(workload: workload, size: 1, ours: ours.median, unit: "ns", oursP99: ours.p99)
            result.lost = ours.lost
            result.floors.append(BenchResult.Figure(name: floorName, ns: floor.median, ratio: ours.median / floor.median, p99Ns: floor.p99, lost: floor.lost))
            result.floors.append(BenchResult.Figure(name: floorName + ", p99", ns: floor.p99, ratio: ours.p99 / floor.p99))
            result.floors.append(BenchResult.Figure(
                name: generationFloorName, ns: generationFloor.median, ratio: ours.median / generationFloor.median, p99Ns: generationFloor.p99, lost: generationFloor.lost))
            rows.append(result)
        }

        let peerName = "swift-configuration ReloadingFileProvider (poll 1 s; default 15 s)"
        let peerRounds = options.quick ? 3 : 20
        if let peer = try blocking({ try await reloadingPeer(home: home, rounds: peerRounds, options: options) }) {
            for index in rows.indices { rows[index].peer(peerName, peer.median, p99: peer.p99, lost: peer.lost) }
        } else {
            for index in rows.indices { rows[index].peer(peerName, missing: "its watch delivered no change within \(options.lostAfter * 2) s") }
        }
        return rows
    }

    /// swift-configuration's reloading file provider over the volume's `config.json` (a link
    /// into `..data`, as kubelet makes it), run as a service in a task of its own.
    private static func reloadingPeer(home: BenchHome, rounds count: Int, options: Options) async throws -> CrossProcessWorkload.Latencies? {
        let peerFolder = try folder(home, "mount-swap-peer")
        let writer = KubeletSwapWriter(folder: peerFolder)
        _ = try writer.write(files(0))
        let provider = try await ReloadingFileProvider<JSONSnapshot>(filePath: FilePath(peerFolder + "/config.json"), pollInterval: .seconds(1))
        let running = Task { try await provider.run() }
        defer { running.cancel() }
        let arrivals = ArrivalLog()
        let reader = ConfigReader(provider: provider)
        let watching = Task {
            try await reader.watchSnapshot { snapshots in
                for await snapshot in snapshots {
                    if let value = snapshot.int(forKey: "ping") { arrivals.record(value, at: wallClockNanoseconds()) }
                }
            }
        }
        defer { watching.cancel() }
        guard arrivals.wait(for: 0, seconds: options.lostAfter * 2) != nil else { return nil }
        // One poll interval is a second: wait up to two for each change, so none is lost.
        let latencies = try rounds([(peerFolder, arrivals, "peer")], warmup: 1, measured: count, lostAfter: 2.5)
        return latencies[0]
    }

    /// Each side's child writes one generation per round (`value` = the round), the sides in
    /// turn, the first alternating; a round waits for the arrival (or `lostAfter`) before the
    /// next swap.
    private static func rounds(
        _ sides: [(folder: String, arrivals: ArrivalLog, what: String)], warmup: Int, measured: Int, lostAfter: Double
    ) throws -> [CrossProcessWorkload.Latencies] {
        var children: [ChildProcess] = []
        for side in sides {
            let child = try ChildProcess(selfPath(), ["child-kubelet", side.folder])
            guard child.readLine() == "ready" else { throw BenchError("the \(side.what) kubelet child did not start") }
            children.append(child)
        }
        var samples = [[Double]](repeating: [], count: sides.count)
        var lost = [Int](repeating: 0, count: sides.count)
        for value in 1...(warmup + measured) {
            let order = value % 2 == 0 ? Array(sides.indices) : Array(sides.indices.reversed())
            for index in order {
                try children[index].send("\(value)")
                guard let line = children[index].readLine(), let space = line.firstIndex(of: " "),
                      Int(line[..<space]) == value, let swappedAt = Int64(line[line.index(after: space)...]) else {
                    throw BenchError("the \(sides[index].what) kubelet child stopped at round \(value)")
                }
                let arrivedAt = sides[index].arrivals.wait(for: value, seconds: lostAfter)
                guard value > warmup else { continue }
                if let arrivedAt { samples[index].append(Double(arrivedAt - swappedAt)) } else { lost[index] += 1 }
            }
        }
        return try sides.indices.map { index in
            guard try children[index].wait() == 0 else { throw BenchError("the \(sides[index].what) kubelet child failed") }
            guard samples[index].count * 2 >= measured else {
                throw BenchError("\(sides[index].what): only \(samples[index].count) of \(measured) swaps arrived")
            }
            return CrossProcessWorkload.Latencies(median: median(samples[index]), p99: percentile(samples[index], 99), lost: lost[index])
        }
    }

    /// The child: says "ready", then for each number N on stdin publishes a generation holding
    /// N and prints "N <when the switch began>" (wall-clock nanoseconds).
    static func child(arguments: [String]) throws {
        guard arguments.count == 1 else { throw BenchError("child-kubelet FOLDER") }
        let writer = KubeletSwapWriter(folder: arguments[0])
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while let line = readLine() {
            guard let value = Int(line) else { throw BenchError("child-kubelet: not a number: \(line)") }
            let swappedAt = try writer.write(files(value))
            FileHandle.standardOutput.write(Data("\(value) \(swappedAt)\n".utf8))
        }
    }

    /// Runs `work` to its end from synchronous code (the harness's), on the concurrency pool.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = OutcomeBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    /// A generation's files for `value`.
    static func files(_ value: Int) -> [(name: String, bytes: [UInt8])] {
        [("ping", Array("\(value)".utf8)), ("config.json", Array("{\"ping\": \(value)}\n".utf8))]
    }

    /// A new folder for one side, 0755, with a first generation (0) already published.
    private static func folder(_ home: BenchHome, _ name: String) throws -> String {
        let path = home.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path + "/..data")) == nil {
            _ = try KubeletSwapWriter(folder: path).write(files(0))
        }
        return path
    }
}

/// The result of a task, handed to the thread that waits for it.
private final class OutcomeBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        lock.lock()
        result = value
        lock.unlock()
    }

    func get() throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw BenchError("the task ended without a result") }
        return try result.get()
    }
}
