import Foundation
import RizqCore
import RizqTestSupport
import XCTest

/// A folder of a test's own under /tmp (0755, so that another user the test runs a child as can
/// reach it), removed with everything in it when the value ends.
final class ScratchFolder {
    let path: String

    init() {
        var template = Array("/tmp/rizq-files-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        chmod(path, 0o755)
    }

    deinit {
        _ = runQuietly("/bin/umount", ["-l", path + "/disk"])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` in the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` with `mode` (exactly: the umask is undone), returning its path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o600) -> String {
        let path = file(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), path)
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    /// A folder `name` with `mode` exactly, returning its path.
    @discardableResult
    func folder(_ name: String, mode: mode_t = 0o700) -> String {
        let path = file(name)
        XCTAssertEqual(mkdir(path, 0o700), 0, path)
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    /// A small tmpfs over `disk` in the folder (root only: skips otherwise), undone with the folder.
    func smallDisk(size: String = "64k", options: String = "") throws -> String {
        let path = folder("disk")
        _ = try Mount.tmpfs(at: path, size: size, options: options)
        return path
    }

    /// The names in the folder `name` ("" for the folder itself) that hold ".tmp-".
    func temporaries(in name: String = "") -> [String] {
        let folder = name.isEmpty ? path : file(name)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".tmp-") }.sorted()
    }

    /// The text of `name`; `nil` when it cannot be read.
    func text(_ name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// What `stat` says of `path` (a final link itself).
func fileInfo(_ path: String) -> stat {
    var info = stat()
    XCTAssertEqual(lstat(path, &info), 0, path)
    return info
}

/// The `FileError` that `body` throws, or a test failure when it throws none (or another error).
func fileError<T: ~Copyable>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> FileError? {
    do {
        _ = try body()
        XCTFail("expected a FileError", file: file, line: line)
    } catch let error as FileError {
        return error
    } catch {
        XCTFail("expected a FileError, got \(error)", file: file, line: line)
    }
    return nil
}

/// Runs `body` with the process umask set to `mask`, then puts the old one back.
@discardableResult
func withUmask<T: ~Copyable>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
    let old = umask(mask)
    defer { umask(old) }
    return try body()
}

/// Whether the lock at `path` is free now: taken without waiting, and let go at once.
func lockIsFree(_ path: String) throws -> Bool {
    guard let lock = try FileLock.tryAcquire(path) else { return false }
    _ = consume lock
    return true
}

/// The test child `rizq-files-test-child` (Tests/Support/FilesChild).
enum FilesChild {
    static var executable: String { productsFolder + "/rizq-files-test-child" }

    /// Runs the child to its end (as `user` when given: `runuser -u USER`); its status and the
    /// lines it printed.
    static func run(_ arguments: [String], as user: String? = nil) throws -> (status: Int32, lines: [String]) {
        var command = executable
        var all = arguments
        if let user {
            guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else {
                throw XCTSkip("running as another user needs root and runuser")
            }
            all = ["-u", user, "--", try reachableByEveryUser(executable)] + arguments
            command = "/usr/sbin/runuser"
        }
        let result = try runCommand(command, all)
        return (result.status, result.stdout.split(separator: "\n").map(String.init))
    }

    /// Starts `--stop-before-each-call` ARGUMENTS, lets `calls` of its system calls through and
    /// kills it with SIGKILL as it stops before the next one (`nil`: never; it runs to its end),
    /// after `whileStopped` has looked at what it left as it stands there. Returns the calls it
    /// announced, and whether it was killed (`false`: it ran out of calls first and ended by
    /// itself, status 0).
    @discardableResult
    static func runKilled(
        beforeCall calls: Int?, _ arguments: [String], whileStopped: () throws -> Void = {}
    ) throws -> (announced: [String], killed: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--stop-before-each-call"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var announced: [String] = []
        var killed = false
        try readLines(of: output.fileHandleForReading) { line in
            guard line.hasPrefix("call ") else { return true }
            if let calls, announced.count == calls {
                defer { kill(process.processIdentifier, SIGKILL) }
                try whileStopped()
                killed = true
                return false
            }
            announced.append(line)
            input.fileHandleForWriting.write(Data("go\n".utf8))
            return true
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        if !killed { XCTAssertEqual(process.terminationStatus, 0, "the child ran to its end: \(announced)") }
        return (announced, killed)
    }

    /// A child started with ARGUMENTS that runs until ``stop()`` (its stdin closes), for a lock
    /// held by another process; ``start(_:waitingFor:)`` returns once it printed `line`.
    final class Running {
        let process = Process()
        private let input = Pipe()

        init(_ arguments: [String], waitingFor line: String) throws {
            process.executableURL = URL(fileURLWithPath: FilesChild.executable)
            process.arguments = arguments
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            var seen: [String] = []
            let found = readLines(of: output.fileHandleForReading) { printed in
                seen.append(printed)
                return printed != line
            }
            guard found else { throw ChildFailure(message: "the child ended before printing \(line): \(seen)") }
        }

        var pid: Int32 { process.processIdentifier }

        /// Closes its stdin (it lets go and exits) and waits for it.
        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        /// Kills it with SIGKILL, as a crash would, and waits for it.
        func crash() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit {
            if process.isRunning { crash() }
        }
    }

    struct ChildFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
