import Foundation
import RizqCore

/// A child process for the file layer's tests (Tests/RizqCoreTests/Files): one operation of the
/// layer in a real process, so that a test can kill it with -9 between any two of its system
/// calls, run it as another user, or let it hold a lock.
///
///     rizq-files-test-child [--stop-before-each-call] COMMAND ARGUMENTS…
///
/// With `--stop-before-each-call` (a debug build's ``SystemCallFaults``), the child prints
/// `call N NAME DETAIL` before each system call of the file layer and waits for a line on stdin
/// before making it: the test answers, or kills it there.
///
/// | command | what it does, and prints |
/// | --- | --- |
/// | `replace PATH TEXT` | replaces PATH by TEXT over the version it read (``FileReplacement``, `.version`), or creates it (`.nothing`); `replaced` |
/// | `journal PATH` | begins a journal of `one`, `two`; appends `three`; rewrites it to `four`; finishes it; `journal N` after each step |
/// | `lock PATH [shared]` | takes the lock (``FileLock``); `locked`, then holds it until stdin closes |
/// | `read RULE PATH` | reads PATH through ``PrivateFile`` judged by RULE (settings, configuration, secret, host, input); the bytes |
/// | `folder RULE PATH` | judges the folder PATH (``PrivateFolder/check(_:trust:)``); `folder` or `missing` |
///
/// Every command ends with `done` on stdout and exit status 0; a refusal is `error MESSAGE` on
/// stdout and exit status 1.
@main
struct FilesChild {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let stops = arguments.first == "--stop-before-each-call"
        if stops { arguments.removeFirst() }
        guard let command = arguments.first else { finish(failing: "usage: rizq-files-test-child [--stop-before-each-call] COMMAND ARGUMENTS…") }
        let rest = Array(arguments.dropFirst())
        do throws(FileError) {
            if stops {
                try stoppingBeforeEachCall { () throws(FileError) in try run(command, rest) }
            } else {
                try run(command, rest)
            }
        } catch {
            finish(failing: error.description)
        }
        say("done")
        exit(0)
    }

    static func run(_ command: String, _ rest: [String]) throws(FileError) {
        switch (command, rest.count) {
        case ("replace", 2):
            let (path, text) = (rest[0], rest[1])
            let read = try PrivateFile.read(path, trust: .settings("file"), limit: 1 << 20)
            var replacement = try FileReplacement.prepare(Array(text.utf8), for: path)
            guard case .replaced = try replacement.install(over: read.map { .version($0.stamp) } ?? .nothing) else {
                finish(failing: "the file changed under the replace")
            }
            say("replaced")
        case ("journal", 1):
            let path = rest[0]
            let journal = try FileJournal.begin(path, lines: [Array("one".utf8), Array("two".utf8)])
            say("journal 1")
            try journal.append(Array("three".utf8))
            say("journal 2")
            try journal.rewrite([Array("four".utf8)])
            say("journal 3")
            try journal.finish()
            say("journal 4")
        case ("lock", 1), ("lock", 2):
            let lock = try FileLock.acquire(rest[0], shared: rest.count == 2 && rest[1] == "shared", timeout: .seconds(60))
            say("locked")
            _ = FileHandle.standardInput.readDataToEndOfFile()
            _ = consume lock
        case ("read", 2):
            guard let trust = rule(rest[0]) else { finish(failing: "unknown rule \(rest[0])") }
            guard let read = try PrivateFile.read(rest[1], trust: trust, limit: 1 << 20) else { return say("missing") }
            say(String(decoding: read.bytes, as: UTF8.self))
        case ("folder", 2):
            guard let trust = rule(rest[0]) else { finish(failing: "unknown rule \(rest[0])") }
            say(try PrivateFolder.check(rest[1], trust: trust) ? "folder" : "missing")
        default:
            finish(failing: "unknown command or arguments: \(command) \(rest)")
        }
    }

    /// Runs `body` with a stop before each of the file layer's system calls: `call N NAME
    /// DETAIL` on stdout, then a line from stdin (the test's go-ahead) before the call is made.
    static func stoppingBeforeEachCall(_ body: () throws(FileError) -> Void) throws(FileError) {
        #if DEBUG  // RizqCore plans faults in debug builds (RIZQ_FAULT_INJECTION, Package.swift)
        var number = 0
        try SystemCallFaults.inject { (faults: SystemCallFaults) throws(FileError) in
            faults.beforeEachCall = { call in
                number += 1
                say("call \(number) \(call)")
                guard readLine() != nil else { exit(3) }
            }
            try body()
        }
        #else
        finish(failing: "--stop-before-each-call needs a debug build")
        #endif
    }

    static func rule(_ name: String) -> FileTrust? {
        switch name {
        case "settings": .settings("file")
        case "configuration": .configuration("file")
        case "secret": .secret("file")
        case "host": .hostProvided("file")
        case "input": .input("file")
        default: nil
        }
    }

    /// One line on stdout, unbuffered: a parent that kills this process has seen every line.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func finish(failing message: String) -> Never {
        say("error " + message)
        exit(1)
    }
}
