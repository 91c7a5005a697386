import Foundation
import XCTest
@testable import RizqPrefs

/// Schema migrations across real processes: two processes opening an old file at once run its
/// stages once; a migration killed with SIGKILL at any point leaves the file wholly old or
/// wholly migrated. Every step waits for a signal — a line the child prints, or the kernel's
/// report (inotify) that the child created, finished or renamed a file — never for a time.
final class SchemaMultiProcessTests: XCTestCase {
    // MARK: Once across processes

    func testTwoProcessesOpeningAnOldFileAtOnceRunTheStagesOnce() throws {
        for round in 0..<5 {
            let root = TemporaryRoot()
            let suite = "com.rizq.schema-once"
            try writeFile(#"{"a": "value \#(round)"}"#, at: root.filePath(suite))
            let counter = root.path + "/stage-runs"
            let children = (0..<2).map { _ in SchemaChild.start(root, suite, ["count", counter]) }
            for child in children { try child.run() }
            for child in children { XCTAssertTrue(printed(child, "ready")) }
            // Both open as soon as they read this line.
            for child in children { SchemaChild.send(child) }
            for child in children {
                let printed = Child.read(child, until: "never")
                child.waitUntilExit()
                XCTAssertEqual(child.terminationStatus, 0, "round \(round): \(stderr(of: child))")
                XCTAssertEqual(printed, "opening\nversion 1\nb value \(round)\n", "round \(round)")
            }
            XCTAssertEqual(try stageRuns(counter), 1, "round \(round): the stage ran once")
            XCTAssertEqual(try root.fileObject(suite) as NSDictionary, ["$schemaVersion": 1, "$schemaApp": "tests", "b": "value \(round)"] as NSDictionary)
        }
    }

    func testAProcessOpeningDuringAnotherOnesMigrationWaitsAndFindsItDone() throws {
        let root = TemporaryRoot()
        let suite = "com.rizq.schema-wait"
        try writeFile(#"{"a": "old"}"#, at: root.filePath(suite))
        let counter = root.path + "/stage-runs"
        let first = SchemaChild.start(root, suite, ["count", counter, "--pause"])
        try first.run()
        _ = Child.read(first, until: "ready")
        SchemaChild.send(first)
        // The first process is inside its stage: it holds the suite's lock.
        XCTAssertTrue(printed(first, "in-stage"))
        let second = SchemaChild.start(root, suite, ["count", counter])
        try second.run()
        _ = Child.read(second, until: "ready")
        SchemaChild.send(second)
        XCTAssertTrue(printed(second, "opening"))
        // The second is opening now, while the first migrates; let the first finish.
        SchemaChild.send(first)
        XCTAssertEqual(Child.read(first, until: "never"), "version 1\nb old\n")
        XCTAssertEqual(Child.read(second, until: "never"), "version 1\nb old\n")
        first.waitUntilExit()
        second.waitUntilExit()
        XCTAssertEqual([first.terminationStatus, second.terminationStatus], [0, 0], stderr(of: second))
        XCTAssertEqual(try stageRuns(counter), 1, "the second process found the file migrated and ran no stage")
    }

    // MARK: Killed half-way

    func testAMigrationKilledAtRandomPointsLeavesTheFileWhollyOldOrWhollyNew() throws {
        let root = TemporaryRoot()
        let suite = "com.rizq.schema-big"
        let group = "group.schema-tests"
        let count = 20_000
        var original: [String: Any] = ["old_name": "x", "move_me": "m"]
        var migrated: [String: Any] = ["$schemaVersion": 2, "$schemaApp": "tests", "new_name": "x"]
        for index in 0..<count {
            original["key-\(index)"] = "\(index)"
            migrated["key-\(index)"] = index
        }
        let originalBytes = try JSONSerialization.data(withJSONObject: original, options: [.sortedKeys])
        let suiteFolder = root.path + "/apps/tests"
        let groupFolder = root.path + "/groups"
        for folder in [suiteFolder, groupFolder] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

        // The points a round may stop at: the ten marks the custom stage prints, then the
        // other suite's write (its temporary file created, renamed into place, closed — the
        // rename comes before the close, so that the close is reported under the suite's own
        // name), then this suite's, then the child's last line.
        enum Point: Equatable {
            case mark(Int)
            case file(folder: String, event: UInt32, suffix: String)
            case done
        }
        var points: [Point] = (0..<10).map { .mark($0) }
        for (folder, name) in [(groupFolder, group), (suiteFolder, suite)] {
            points.append(.file(folder: folder, event: UInt32(IN_CREATE), suffix: ".tmp-"))
            points.append(.file(folder: folder, event: UInt32(IN_MOVED_TO), suffix: name + ".json"))
            points.append(.file(folder: folder, event: UInt32(IN_CLOSE_WRITE), suffix: name + ".json"))
        }
        points.append(.done)

        // Twenty rounds, in a random order, that stop at every point at least once.
        let schedule = (points + (points.count..<20).map { _ in points.randomElement() ?? .done }).shuffled()
        var outcomes: [String: Int] = [:]
        for (round, point) in schedule.enumerated() {
            try originalBytes.write(to: URL(fileURLWithPath: root.filePath(suite)))
            try? FileManager.default.removeItem(atPath: root.filePath(group))
            let events = try FolderEvents(folders: [suiteFolder, groupFolder])
            let child = SchemaChild.start(root, suite, ["big", String(count)])
            try child.run()
            switch point {
            case .mark(let number):
                XCTAssertTrue(printed(child, "mark \(number)"), "round \(round): \(stderr(of: child))")
            case .file(let folder, let event, let suffix):
                XCTAssertTrue(try events.wait(in: folder, for: event, nameContaining: suffix), "round \(round): \(point) never happened")
            case .done:
                XCTAssertTrue(printed(child, "done"), "round \(round)")
            }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

            // Wholly old, byte for byte, or wholly migrated; the other suite has the moved key
            // or nothing of it, and has it whenever this suite is migrated.
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: root.filePath(suite)), "round \(round): no suite file")
            let isOld = bytes == originalBytes
            if !isOld {
                let object = try XCTUnwrap(JSONSerialization.jsonObject(with: bytes) as? NSDictionary, "round \(round): not a JSON object")
                // (Not XCTAssertEqual: a failure would print 20,000 keys twice.)
                XCTAssertTrue(
                    object == migrated as NSDictionary,
                    "round \(round), killed at \(point): neither the old file nor the migrated one (version \(object["$schemaVersion"] ?? "none"), \(object.count) members)")
            }
            let moved = FileManager.default.contents(atPath: root.filePath(group)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? NSDictionary }
            XCTAssertTrue(moved == nil || moved == ["moved": "m"], "round \(round): the other suite holds \(String(describing: moved))")
            if !isOld { XCTAssertNotNil(moved, "round \(round): migrated, but the moved key is nowhere") }
            outcomes[isOld ? "old" : "new", default: 0] += 1
        }
        print("kill -9 rounds: \(outcomes)")
        // A last open, not killed, of the old file (put back whatever the last round left):
        // it migrates, and its write, the suite's first, cleans up the temporary files that
        // killed writers left behind.
        try originalBytes.write(to: URL(fileURLWithPath: root.filePath(suite)))
        try? FileManager.default.removeItem(atPath: root.filePath(group))
        let child = SchemaChild.start(root, suite, ["big", String(count)])
        try child.run()
        XCTAssertTrue(printed(child, "done"))
        child.waitUntilExit()
        XCTAssertEqual(try root.fileObject(suite) as NSDictionary, migrated as NSDictionary)
        XCTAssertEqual(try root.fileObject(group) as NSDictionary, ["moved": "m"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: suiteFolder).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    // MARK: Helpers

    private func writeFile(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Waits until `child` prints `line`; `false` when it ends its output first.
    private func printed(_ child: Process, _ line: String) -> Bool {
        Child.read(child, until: line).split(separator: "\n").contains(Substring(line))
    }

    private func stageRuns(_ counter: String) throws -> Int {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: counter)), as: UTF8.self).split(separator: "\n").count
    }

    private func stderr(of process: Process) -> String {
        String(decoding: (process.standardError as? Pipe)?.fileHandleForReading.availableData ?? Data(), as: UTF8.self)
    }
}

/// What the kernel reports of files created, written and renamed in some folders (inotify),
/// read in the order it happened.
private final class FolderEvents {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]

    init(folders paths: [String]) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        for path in paths {
            let watch = inotify_add_watch(descriptor, path, UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO))
            guard watch >= 0 else { throw POSIXError(.EIO) }
            folders[watch] = path
        }
    }

    deinit { close(descriptor) }

    /// Reads events until `event` happens in `folder` to a file whose name contains `fragment`;
    /// `false` if none comes within a minute (a guard against a hang, not a timing).
    func wait(in folder: String, for event: UInt32, nameContaining fragment: String) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 60_000) == 1 else { return false }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw POSIXError(.EIO) }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset, as: Int32.self),
                     raw.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                if folders[watch] == folder, mask & event != 0, name.contains(fragment), !name.hasSuffix(".lock") { return true }
            }
        }
    }
}
