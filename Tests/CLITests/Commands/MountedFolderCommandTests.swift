import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// `get --mounted` and `watch --mounted`: a folder kubelet's writer (scripts/kubelet-writer, a
/// process of its own) publishes generations into, watched by `rizq-prefs watch` in another
/// process; Docker's plain secrets; a subPath mount; secrets never printed.
final class MountedFolderCommandTests: XCTestCase {
    /// Create, update, a key removed, a key added, then 150 swaps back to back: each line the
    /// watcher prints is one whole generation (every value the generation's own, its key set),
    /// in order, ending with the last one published. It synchronises on the lines it prints.
    func testWatchSeesEveryGenerationWholeFromAnotherProcess() throws {
        let cli = try CLIHarness()
        let volume = try KubeletVolume("watched")
        let created = try volume.write(["a": "1", "b": "2"])
        let watch = try cli.start(["watch", "--mounted", volume.path, "--json"])
        defer { if watch.process.isRunning { _ = watch.stop(with: SIGTERM) } }
        XCTAssertTrue(watch.wait { out, _ in (try? lines(out))?.count == 1 }, "\(watch.stdout) / \(watch.stderr)")
        XCTAssertTrue(watch.stderr.contains("watching mounted folder \(volume.path)"), watch.stderr)
        let first = try lines(watch.stdout)[0]
        XCTAssertEqual(first["generation"], created.map(PrefValue.string))
        XCTAssertEqual(first["values"], ["a": "1", "b": "2"])
        XCTAssertEqual(first["secret"], false)

        let steps: [(values: [String: String], changed: [String], removed: [String])] = [
            (["a": "10", "b": "2"], ["a"], []),
            (["a": "10"], [], ["b"]),
            (["a": "10", "c": "3"], ["c"], []),
        ]
        for (index, step) in steps.enumerated() {
            let generation = try volume.write(step.values)
            XCTAssertTrue(watch.wait { out, _ in (try? lines(out).last?["generation"]) == generation.map(PrefValue.string) }, "step \(index): \(watch.stdout)")
            let line = try lines(watch.stdout)
            XCTAssertEqual(line.count, index + 2, "one line per generation: \(watch.stdout)")
            XCTAssertEqual(line.last?["values"], .dictionary(step.values.mapValues(PrefValue.string)))
            XCTAssertEqual(line.last?["changed"], .array(step.changed.map(PrefValue.string)))
            XCTAssertEqual(line.last?["removed"], .array(step.removed.map(PrefValue.string)))
        }

        let before = try lines(watch.stdout).count
        let published = try volume.burst(150, keys: ["a", "b", "c", "d"], dropOdd: true)
        XCTAssertTrue(watch.wait { out, _ in (try? lines(out).last?["generation"]) == published.last.map(PrefValue.string) }, "the last of the burst: \(watch.stdout.suffix(400))")
        let burst = try lines(watch.stdout).dropFirst(before)
        XCTAssertFalse(burst.isEmpty)
        var lastNumber = 0
        for line in burst {
            guard case .dictionary(let values)? = line["values"] else { return XCTFail("\(line)") }
            XCTAssertEqual(Set(values.values).count, 1, "one generation's values: \(values)")
            guard case .string(let text)? = values.values.first, let number = Int(text) else { return XCTFail("\(values)") }
            XCTAssertEqual(values.keys.sorted(), number % 2 == 1 ? ["a", "b", "c"] : ["a", "b", "c", "d"], "generation \(number)'s keys")
            XCTAssertGreaterThan(number, lastNumber, "in order")
            XCTAssertTrue(published.contains { line["generation"] == .string($0) }, "a generation the writer published")
            lastNumber = number
        }
        XCTAssertEqual(lastNumber, 150)
        XCTAssertEqual(watch.stop(with: SIGINT), 0)
    }

    /// A folder of secrets prints which keys changed, never a value: flagged by --secrets, or
    /// found to be where a host puts secrets ($CREDENTIALS_DIRECTORY here).
    func testWatchNeverPrintsTheValuesOfASecretsFolder() throws {
        let cli = try CLIHarness()
        let volume = try KubeletVolume("secret")
        try volume.write(["token": "s3cr3t-one"])
        for (arguments, environment) in [(["--secrets"], [:]), ([], ["CREDENTIALS_DIRECTORY": volume.path])] {
            var harness = cli.environment
            for (name, value) in environment { harness[name] = value }
            let watch = try RunningCLI(arguments: ["watch", "--mounted", volume.path] + arguments, environment: harness)
            XCTAssertTrue(watch.wait { out, _ in out.contains("1 key") }, watch.stdout)
            let generation = try XCTUnwrap(try volume.write(["token": "s3cr3t-two-\(arguments.count)"]))
            XCTAssertTrue(watch.wait { out, _ in out.contains(generation) }, watch.stdout)
            XCTAssertTrue(watch.wait { out, _ in out.contains("token changed (a secret: not shown)") }, watch.stdout)
            XCTAssertEqual(watch.stop(with: SIGTERM), 0)
            XCTAssertFalse(watch.stdout.contains("s3cr3t"), watch.stdout)
            XCTAssertFalse(watch.stderr.contains("s3cr3t"), watch.stderr)
        }
        let json = try cli.start(["watch", "--mounted", volume.path, "--json", "--secrets"])
        XCTAssertTrue(json.wait { out, _ in out.contains("\n") })
        XCTAssertEqual(json.stop(with: SIGTERM), 0)
        let line = try lines(json.stdout)[0]
        XCTAssertEqual(line["secret"], true)
        XCTAssertEqual(line["keys"], ["token"])
        XCTAssertNil(line["values"])
    }

    /// Docker's and Compose's /run/secrets: plain files, read as they are.
    func testGetReadsADockerStyleFolderAndAVolume() throws {
        let cli = try CLIHarness()
        let secrets = cli.root + "/run-secrets"
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: secrets + "/db_password"))
        XCTAssertEqual(chmod(secrets + "/db_password", 0o444), 0)
        let value = try cli.run(["get", "--mounted", secrets, "db_password"])
        XCTAssertEqual(value.status, 0, value.stderr)
        XCTAssertEqual(value.stdout, "pw\n", "the trailing newline cut, one printed")
        XCTAssertEqual(try cli.run(["get", "--mounted", secrets, "db_password", "--json"]).stdout, "\"pw\"\n")

        let volume = try KubeletVolume("get")
        try volume.write(["http.timeout": "30\n", "conf/app.yaml": "a: 1\n"])
        XCTAssertEqual(try cli.run(["get", "--mounted", volume.path, "http.timeout"]).stdout, "30\n")
        XCTAssertEqual(try cli.run(["get", "--mounted", volume.path, "conf/app.yaml"]).stdout, "a: 1\n")
        let missing = try cli.run(["get", "--mounted", volume.path, "nope"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no key 'nope' in the mounted folder \(volume.path) (Kubernetes volume, generation"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("its keys: conf/app.yaml, http.timeout"), missing.stderr)
        let both = try cli.run(["get", "--mounted", volume.path, "--suite", "group.x", "http.timeout"])
        XCTAssertEqual(both.status, 2, both.stderr)
        let absent = try cli.run(["get", "--mounted", cli.root + "/none", "k"])
        XCTAssertEqual(absent.status, 1, absent.stderr)
        XCTAssertTrue(absent.stderr.contains("does not exist"), absent.stderr)
    }

    /// The direct reader of `get` (DirectCommandLine: the command parsed as its own root) reads
    /// `--mounted` as the full command tree does: the same output with it on as with it off.
    func testTheDirectReaderReadsMountedAsTheFullTreeDoes() throws {
        let quick = try CLIHarness()
        let full = try CLIHarness()
        full.environment["RIZQ_PREFS_FULL_PARSER"] = "1"
        let volume = try KubeletVolume("quick")
        try volume.write(["k": "v\n"])
        for line in [["get", "--mounted", volume.path, "k"], ["get", "k", "--mounted=\(volume.path)", "--json"], ["get", "--mounted", volume.path, "none"]] {
            let a = try quick.run(line)
            let b = try full.run(line)
            XCTAssertEqual(a.status, b.status, "\(line)")
            XCTAssertEqual(a.stdout, b.stdout, "\(line)")
            XCTAssertEqual(a.stderr, b.stderr, "\(line)")
        }
        XCTAssertEqual(try quick.run(["get", "--mounted", volume.path, "k"]).stdout, "v\n")
    }

    /// A Kubernetes subPath mount — one generation's file bind-mounted over a plain file, as
    /// kubelet and the runtime do — is named as never updating; after the writer's next
    /// generation, as replaced at its source. In a mount namespace of the test's own (root).
    func testASubPathMountIsWarnedAboutAsNeverUpdating() throws {
        let cli = try CLIHarness()
        let volume = try KubeletVolume("subpath")
        try volume.write(["app.yaml": "v1"])
        let container = cli.root + "/container"
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        XCTAssertTrue(FileManager.default.createFile(atPath: container + "/app.yaml", contents: nil))
        let script = """
            set -e
            mount --bind "$(readlink -f "$VOLUME/app.yaml")" "$CONTAINER/app.yaml"
            "$CLI" get --mounted "$CONTAINER" app.yaml
            python3 "$WRITER" "$VOLUME" app.yaml=v2 >/dev/null
            "$CLI" get --mounted "$CONTAINER" app.yaml
            """
        var environment = cli.environment
        environment["VOLUME"] = volume.path
        environment["CONTAINER"] = container
        environment["CLI"] = CLIHarness.binary
        environment["WRITER"] = KubeletVolume.script
        let probe = try runCommand("/usr/bin/unshare", ["-m", "--propagation", "private", "true"])
        guard probe.status == 0 else { throw XCTSkip("no mount namespace here (unshare -m: \(probe.stderr)); needs root with CAP_SYS_ADMIN") }
        let result = try runCommand("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "v1\nv1\n", "the subPath file never updates")
        let warnings = result.stderr.split(separator: "\n")
        XCTAssertTrue(warnings.contains { $0.contains("'app.yaml' is a Kubernetes subPath mount (of ..") && $0.contains("it will never update") }, result.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("'app.yaml' was replaced where it is mounted from") }, "after the next generation: \(result.stderr)")
    }

    /// Issue 50, item 14: `watch --mounted` printed file names raw, so a key named with escape
    /// sequences (a title change, a hidden line) reached the terminal. Every name it prints, in
    /// text and in JSON, and in `get --mounted`'s listing, is escaped now.
    func testFileNamesReachTheTerminalEscaped() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/mounted"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        // C0 controls (which any JSON writer escapes), a C1 CSI and a right-to-left override
        // (which JSON leaves as they are): none reaches the terminal, in text or in JSON.
        let hostile = "title\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}2J\u{202E}txt.exe"
        try Data("v\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + hostile))
        for arguments in [["watch", "--mounted", folder], ["watch", "--mounted", folder, "--json"]] {
            let watch = try cli.start(arguments)
            XCTAssertTrue(watch.wait { out, _ in out.contains("\n") && (arguments.count == 4 || out.contains("title")) }, watch.stdout)
            XCTAssertEqual(watch.stop(with: SIGTERM), 0)
            XCTAssertFalse(watch.stdout.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) }, "\(arguments): \(watch.stdout.debugDescription)")
            XCTAssertTrue(watch.stdout.contains("title"), watch.stdout)
        }
        let missing = try cli.run(["get", "--mounted", folder, "other"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertFalse(missing.stderr.contains("\u{1B}"), missing.stderr.debugDescription)
        XCTAssertTrue(missing.stderr.contains("title\\u{1B}]0;pwned"), missing.stderr)
    }

    /// Issue 50, item 23: a mounted folder of more than 1,024 files refused even a one-key
    /// `get` (the whole folder was read for it). One key's file is read alone now; a whole read
    /// (`watch`) still says the folder is over its limits.
    func testOneKeyOfAFolderOfManyFilesIsRead() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/many"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for index in 0..<1_100 {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/key\(index)", contents: Data("value \(index)".utf8), attributes: [.posixPermissions: 0o644]))
        }
        let one = try cli.run(["get", "--mounted", folder, "key1099"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(one.stdout, "value 1099\n")
        let missing = try cli.run(["get", "--mounted", folder, "nope"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no key 'nope'"), missing.stderr)
    }

    /// Issue 50, item 9: `MountedFolder.bytes(forKey:)` did not judge the generation folder (nor
    /// a nested key's folder) that `read()` judges: one others can write is refused by both now.
    func testAOneKeyReadJudgesTheFoldersOnTheWay() throws {
        let cli = try CLIHarness()
        let volume = try KubeletVolume("judged")
        let generation = try XCTUnwrap(try volume.write(["flag": "on\n", "conf/app.yaml": "a: 1\n"]))
        XCTAssertEqual(try cli.run(["get", "--mounted", volume.path, "flag"]).stdout, "on\n")
        XCTAssertEqual(chmod(volume.path + "/" + generation, 0o777), 0)
        let refused = try cli.run(["get", "--mounted", volume.path, "flag"])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains(generation) && refused.stderr.contains("any user can write it"), refused.stderr)
        XCTAssertEqual(chmod(volume.path + "/" + generation, 0o755), 0)
        XCTAssertEqual(chmod(volume.path + "/" + generation + "/conf", 0o777), 0)
        let nested = try cli.run(["get", "--mounted", volume.path, "conf/app.yaml"])
        XCTAssertNotEqual(nested.status, 0, nested.stdout)
        XCTAssertTrue(nested.stderr.contains("conf") && nested.stderr.contains("any user can write it"), nested.stderr)
    }
}

/// Each stdout line parsed as JSON.
private func lines(_ text: String) throws -> [PrefValue] {
    try text.split(separator: "\n").map { try JSONReader.parse(String($0)) }
}

extension PrefValue {
    /// A member of an object, `nil` for anything else.
    fileprivate subscript(key: String) -> PrefValue? {
        if case .dictionary(let members) = self { return members[key] }
        return nil
    }
}
