import ArgumentParser
import Foundation
import RizqCommandLine
@testable import rizq_prefs
@testable import rizq_prefs_secrets
import XCTest

/// Lines read by the direct reader (DirectCommandLine: one command parsed as its own root) behave exactly as when
/// argument-parser reads them: the same lines, run in the same order against two roots — one of
/// them with the quick reader off — give the same exit statuses, stdout, stderr and suite files.
final class DirectCommandLineTests: XCTestCase {
    func testTheQuickReaderAndArgumentParserAgreeLineForLine() throws {
        let quick = try CLIHarness()
        let full = try CLIHarness()
        full.environment["RIZQ_PREFS_FULL_PARSER"] = "1"
        let lines: [[String]] = [
            ["set", "streak", "12", "--int"],
            ["set", "--type", "int", "goal", "3"],
            ["set", "--type=double", "ratio", "0.5"],
            ["set", "flag", "yes", "--bool"],
            ["set", "name", "Zeynep Ümit"],
            ["set", "empty", ""],
            ["set", "--json", "prefs", #"{"dailyGoal": 3, "tags": ["a", "b"]}"#],
            ["set", "--suite", "group.com.rizq.clitest.shared", "theme", "dark"],
            ["set", "--suite=group.com.rizq.clitest.shared", "--app", "com.rizq.other", "theme", "light"],
            ["set", "offset", "-7", "--int"],
            ["set", "bad", "twelve", "--int"],
            ["set", "clash", "1", "--type", "int", "--bool"],
            ["set", "two", "1", "--int", "--bool"],
            ["set", "unknown", "1", "--type", "integer"],
            ["set", "only-key"],
            ["set", "k", "v", "extra"],
            ["set", "k", "v", "--bogus"],
            ["set", "--app", "com.rizq.other", "k", "v"],
            ["set", "--app", "--int", "k", "v"],
            ["get", "streak"],
            ["get", "--json", "name"],
            ["get", "name", "--json"],
            ["get", "prefs"],
            ["get", "empty"],
            ["get", "offset"],
            ["get", "missing"],
            ["get", "--app=com.rizq.other", "k"],
            ["get", "--suite", "group.com.rizq.clitest.shared", "theme"],
            ["get", "--suite", "rizq-migrations", "k"],
            ["get", "--suite", "rizq-imports", "k"],
            ["get", "--app", "bad/app", "k"],
            ["get"],
            ["get", "a", "b"],
            ["get", "--int", "streak"],
            ["get", "--app", "com.rizq.other", "--app", "com.rizq.clitest", "k"],
            ["get", "--", "--odd"],
            ["get", "--help"],
            ["set", "--type=int", "below", "-3"],
            ["set", "k", "v", "--string", "--string"],
            ["set", "--app=", "k", "v"],
            ["set", "k", "--", "-v"],
            ["set", "-v", "k", "v"],
            ["get", "below"],
            ["get", "--json", "--json", "name"],
            ["get", "--mounted", "--json", "k"],
            ["get", "--app", "-7", "k"],
            ["list"],
            ["list", "--json"],
            ["list", "--app", "com.rizq.empty"],
            ["list", "--suite", "group.com.rizq.clitest.shared", "--json"],
            ["list", "extra"],
        ]
        for line in lines {
            let a = try quick.run(line)
            let b = try full.run(line)
            XCTAssertEqual(a.status, b.status, "exit status of \(line)")
            XCTAssertEqual(a.stdout, b.stdout, "stdout of \(line)")
            XCTAssertEqual(a.stderr.replacingOccurrences(of: quick.root, with: "ROOT"), b.stderr.replacingOccurrences(of: full.root, with: "ROOT"), "stderr of \(line)")
        }
        XCTAssertEqual(try suiteFiles(quick.root), try suiteFiles(full.root), "the suite files")
        XCTAssertEqual(try quick.run(["get", "streak"]).stdout, "12\n", "the quick reader stored the value")
    }

    /// Every suite file under `root` (not the change logs, which hold times), by relative path.
    private func suiteFiles(_ root: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".json"), !(path as NSString).lastPathComponent.hasPrefix(".") else { continue }
            files[path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }
        XCTAssertFalse(files.isEmpty)
        return files
    }
}

/// Every option, flag and argument of every command, as argument-parser itself lists them
/// (`--experimental-dump-help`): each line the direct reader takes gives the very command the
/// full parse from the root gives, and the plain lines are taken by it (so the fast path is not
/// silently lost when an option is added). In-process, through the CLI's own types.
final class DirectCommandLineCoverageTests: XCTestCase {
    struct Argument {
        var kind: String
        var name: String
        var isRepeating: Bool
    }

    /// The leaf commands (their words) and their arguments, from the help dump of `executable`
    /// (`rizq-prefs`, or `rizq-prefs-secrets`, which runs the commands rizq-prefs hands over).
    private func commands(of executable: String = "rizq-prefs") throws -> [(words: [String], arguments: [Argument])] {
        let harness = try CLIHarness()
        let run = try runProcess(CLIHarness.executable(executable), ["--experimental-dump-help"], input: nil, environment: harness.environment)
        let dump = (status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [(words: [String], arguments: [Argument])] = []
        func walk(_ command: [String: Any], _ words: [String]) {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty, !words.isEmpty {
                let arguments = (command["arguments"] as? [[String: Any]] ?? []).compactMap { argument -> Argument? in
                    let names = argument["names"] as? [[String: Any]] ?? []
                    let long = names.first { $0["kind"] as? String == "long" }?["name"] as? String
                    let name = long ?? argument["valueName"] as? String ?? ""
                    return Argument(kind: argument["kind"] as? String ?? "", name: name, isRepeating: argument["isRepeating"] as? Bool ?? false)
                }
                found.append((words, arguments))
            }
            for subcommand in subcommands {
                walk(subcommand, words + [subcommand["commandName"] as? String ?? ""])
            }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), [])
        return found
    }

    /// A value an option of this name accepts.
    private func sample(for option: String) -> String {
        switch option {
        case "type": return "int"
        case "timeout": return "5"
        case "backend", "from": return "vault"
        case "to": return "secret-service"
        case "format": return "flat"
        default: return "sample-\(option)"
        }
    }

    private func described(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    /// What a command argument-parser parsed asks for, when it is one the plain reader reads.
    private func request(of command: any ParsableCommand) throws -> Any {
        let plain = try XCTUnwrap(command as? any PlainLineCommand, "\(type(of: command)) reads plain lines")
        return plain.request
    }

    func testEveryOptionOfEveryCommandParsesTheSameBothWays() throws {
        // rizq-prefs' own commands (not those it hands over: they are stubs that take any words),
        // and those of rizq-prefs-secrets, each under its executable's root.
        let handedOver = Set(HandedOverCommand.all.map { [$0.name] })
        let trees: [(root: any ParsableCommand.Type, commands: [(words: [String], arguments: [Argument])])] = [
            (RizqPrefsCommand.self, try commands().filter { $0.words != ["help"] && !handedOver.contains($0.words) }),
            (SecretsToolCommand.self, try commands(of: "rizq-prefs-secrets").filter { $0.words != ["help"] }),
        ]
        XCTAssertTrue(trees[1].commands.contains { $0.words == ["secret", "get"] }, "rizq-prefs-secrets lists 'secret get'")
        var lines = 0
        var direct = 0
        for (root, commands) in trees {
            for (words, arguments) in commands {
                let positionals = arguments.filter { $0.kind == "positional" && $0.name != "unexpected" }.map { "value-\($0.name)" }
                var candidates: [[String]] = [words + positionals]
                for argument in arguments where !["version", "help", "h"].contains(argument.name) {
                    switch argument.kind {
                    case "option": candidates.append(words + positionals + ["--\(argument.name)", sample(for: argument.name)])
                    case "flag": candidates.append(words + ["--\(argument.name)"] + positionals)
                    default: continue
                    }
                }
                candidates.append(words + positionals + ["--verbose"])
                for line in candidates {
                    let marked = NegativeNumbers.mark(line)
                    lines += 1
                    let full = try? root.parseAsRoot(marked)
                    if let plain = PlainCommandLine.line(line) {
                        let expected = try XCTUnwrap(full, "the plain reader took \(line), which the full parse refuses")
                        XCTAssertEqual(described(plain.request), described(try request(of: expected)), "\(line) asks the same plain and in full")
                    }
                    guard let fast = DirectCommandLine.command(marked, root: root) else { continue }
                    direct += 1
                    let expected = try XCTUnwrap(full, "the direct reader took \(line), which the full parse refuses")
                    XCTAssertEqual(described(fast), described(expected), "\(line) parses the same both ways")
                }
                // The plain line (the command's words and its arguments), when it is a valid line, is read directly.
                let plain = NegativeNumbers.mark(words + positionals)
                if (try? root.parseAsRoot(plain)) != nil {
                    XCTAssertNotNil(DirectCommandLine.command(plain, root: root), "\(words) with its arguments takes the direct path")
                    if words.count == 1, PlainCommandLine.commands[words[0]] != nil {
                        XCTAssertNotNil(PlainCommandLine.line(words + positionals), "\(words) with its arguments takes the plain path")
                    }
                }
            }
        }
        XCTAssertGreaterThan(lines, 100, "every command's options were tried")
        XCTAssertGreaterThan(direct, lines / 2, "most lines take the direct path (\(direct) of \(lines))")
    }

    /// The plain reader (PlainCommandLine) knows exactly the options and flags argument-parser
    /// lists for each of its commands: an option added to `get` or `set` fails here until the
    /// plain reader fills it too (until then, lines with it would go to argument-parser).
    func testThePlainReaderKnowsExactlyTheOptionsArgumentParserLists() throws {
        let all = try commands()
        XCTAssertEqual(Set(PlainCommandLine.commands.keys), ["get", "set"])
        for (name, type) in PlainCommandLine.commands {
            let arguments = try XCTUnwrap(all.first { $0.words == [name] }, "argument-parser lists '\(name)'").arguments
            let options = Set(arguments.filter { $0.kind == "option" }.map(\.name))
            let flags = Set(arguments.filter { $0.kind == "flag" && !["version", "help"].contains($0.name) }.map(\.name))
            XCTAssertEqual(type.plainOptions, options, "the options of '\(name)'")
            XCTAssertEqual(type.plainFlags, flags, "the flags of '\(name)'")
        }
    }

    /// Lines at the edge of plain: each the plain reader takes gives the command argument-parser
    /// gives; each it refuses is left to argument-parser (which takes or explains it).
    func testThePlainReaderTakesPlainLinesAndLeavesTheRest() throws {
        let taken: [[String]] = [
            ["get", "k"], ["get", "--app", "com.rizq.a", "k"], ["get", "--app=com.rizq.a", "k"], ["get", "k", "--json"],
            ["get", "--json", "--suite", "group.com.rizq.s", "--app", "com.rizq.a", "k"], ["get", "--mounted", "/etc/config", "k"],
            ["get", "-7"], ["get", "", "--app", "com.rizq.a"], ["get", "Zeynep Ümit", "--app", "com.rizq.a"],
            ["set", "k", "v"], ["set", "k", "12", "--int"], ["set", "--type", "int", "k", "-12"], ["set", "--type=double", "k", "-.5"],
            ["set", "k", "", "--string"], ["set", "--json", "k", #"{"a": [1, 2]}"#], ["set", "--type", "bool", "--bool", "k", "yes"],
            ["set", "--app", "-7", "k", "v"],
        ]
        let left: [[String]] = [
            ["get"], ["get", "a", "b"], ["get", "--help"], ["get", "-h", "k"], ["get", "-v", "k"], ["get", "--verbose", "k"],
            ["get", "--", "--odd"], ["get", "--app", "a", "--app", "b", "k"], ["get", "--json", "--json", "k"], ["get", "--app"],
            ["get", "--app", "--json", "k"], ["get", "--app=", "k"], ["get", "--json=yes", "k"], ["get", "--bogus", "k"], ["get", "--int", "k"],
            ["set", "k"], ["set", "k", "v", "x"], ["set", "k", "v", "--int", "--bool"], ["set", "k", "v", "--type", "integer"],
            ["set", "k", "1", "--type", "int", "--bool"], ["set", "k", "--", "-v"], ["set", "k", "v", "--mounted", "/x"],
            ["list"], ["delete", "k"], ["secret", "get", "k"], [],
        ]
        for line in taken {
            let plain = try XCTUnwrap(PlainCommandLine.line(line), "the plain reader takes \(line)")
            let full = try XCTUnwrap(try? RizqPrefsCommand.parseAsRoot(NegativeNumbers.mark(line)), "argument-parser takes \(line)")
            XCTAssertEqual(described(plain.request), described(try request(of: full)), "\(line) asks the same plain and in full")
        }
        for line in left {
            XCTAssertNil(PlainCommandLine.line(line), "the plain reader leaves \(line) to argument-parser")
        }
    }
}
