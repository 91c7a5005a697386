import Foundation
import RizqJSON
#if canImport(Glibc)
import Glibc
#endif

/// The suites that exist under a root, their quarantined damaged files, and a read-only health
/// check of the folders and files: what `rizq-prefs suites` and `rizq-prefs doctor` show.
///
/// Nothing here opens a suite, so nothing is created, moved aside or written.
///
/// ```swift
/// for suite in try SuiteCatalog().suites() { print(suite.suiteName, suite.path) }
/// ```
package struct SuiteCatalog: Sendable {
    /// One suite file.
    package struct Entry: Sendable, Equatable {
        /// The suite's name (`com.example.app`, `group.com.example.shared`).
        public var suiteName: String
        /// The app whose folder holds it; `nil` for an app-group suite.
        public var appID: String?
        /// The file's path.
        public var path: String
        /// Whether it is an app-group suite, shared by every app of the user.
        public var isGroup: Bool { appID == nil }
    }

    /// One result of ``inspect()``.
    package struct Finding: Sendable, Equatable {
        /// How much it needs the user.
        package enum Severity: String, Sendable, Comparable {
            /// All is well.
            case ok
            /// Worth knowing; nothing is at risk.
            case warning
            /// Needs the user: data is unreadable, exposed or set aside.
            case problem

            /// `ok` < `warning` < `problem`.
            public static func < (left: Severity, right: Severity) -> Bool {
                let order: [Severity] = [.ok, .warning, .problem]
                return order.firstIndex(of: left) ?? 0 < order.firstIndex(of: right) ?? 0
            }
        }

        /// How much it needs the user.
        public var severity: Severity
        /// The file or folder concerned.
        public var path: String
        /// What was found.
        public var message: String
        /// What to do about it (empty when nothing).
        public var fix: String

        /// Creates a finding.
        public init(severity: Severity, path: String, message: String, fix: String) {
            self.severity = severity
            self.path = path
            self.message = message
            self.fix = fix
        }
    }

    /// The root of all suite files (see ``SuiteLocation``).
    public let root: String

    /// The catalog of `root` (default: `RIZQ_PREFS_HOME`, else the XDG location).
    public init(root: String = SuiteLocation.defaultRoot()) {
        self.root = root
    }

    /// Every suite file: app-group suites first, then each app's, sorted by name. The apps'
    /// import records (``importRecordName``, and ``earlierImportRecordName`` from before) are
    /// not suites and are not listed.
    /// - Throws: ``SuiteStoreError/unreadable(path:reason:)`` when a folder cannot be listed
    ///   (``listing()`` lists the others all the same).
    public func suites() throws(SuiteStoreError) -> [Entry] {
        let listing = listing()
        if let folder = listing.unreadable.first { throw .unreadable(path: folder.path, reason: folder.reason) }
        return listing.suites
    }

    /// The damaged files moved aside as `<suite>.corrupt-<timestamp>.json`, sorted.
    public func quarantinedFiles() -> [String] {
        listing().quarantined
    }

    /// Checks, without changing anything: each location (the root, `apps`, each app's folder,
    /// `groups`) is a folder, writable, yours and `0700` (or, before the first write, can be
    /// created); each suite file is yours, `0600`, readable, and a JSON object; quarantined files
    /// are listed; last, what the file system can do and inotify's limits
    /// (``capabilityFindings()``, which tries the file system with two hidden probe files,
    /// removed at once).
    public func inspect() -> [Finding] {
        var findings: [Finding] = []
        guard let rootInfo = Self.info(root) else {
            return [creatable(root)] + capabilityFindings()
        }
        findings.append(check(folder: root, rootInfo))
        // One folder that cannot be listed is reported, and every other one is checked.
        let listing = listing()
        let unreadable = Set(listing.unreadable.map(\.path))
        for folder in [root + "/apps"] + listing.folders where !unreadable.contains(folder) {
            if let info = Self.info(folder) { findings.append(check(folder: folder, info)) }
        }
        for path in listing.notFolders {
            if let info = Self.info(path) { findings.append(check(folder: path, info)) }
        }
        for folder in listing.unreadable {
            findings.append(Finding(
                severity: .problem, path: folder.path,
                message: "the folder cannot be listed (\(folder.reason)): its suites are not shown by `rizq-prefs suites` nor checked here",
                fix: "chown -R $(id -u) '\(folder.path)' && chmod 700 '\(folder.path)'"))
        }
        for suite in listing.suites + listing.importRecords { findings.append(check(suite: suite)) }
        for file in listing.quarantined {
            findings.append(Finding(
                severity: .problem, path: file,
                message: "a damaged suite file was moved aside here; its suite started empty",
                fix: "look at it, copy back what you need with \(Self.importCommand(for: file)) (repair by hand first what it says does not parse), then delete it"))
        }
        for file in undecodableFiles() {
            findings.append(Finding(
                severity: .warning, path: file,
                message: "a file whose name is not valid UTF-8: it is no suite (a suite's name is text), and no suite reads it",
                fix: "rename it to a name in UTF-8 (mv \(file) …), or remove it"))
        }
        return findings + capabilityFindings()
    }

    /// `rizq-prefs import --salvage --app A --suite S 'FILE'` for a quarantined file: `--salvage`
    /// takes every key that can be read back and names those it leaves out (values nested
    /// deeper than a suite file holds), so that one such value does not keep the rest out.
    private static func importCommand(for file: String) -> String {
        let name = (file as NSString).lastPathComponent
        let suite = name.components(separatedBy: ".corrupt-").first ?? name
        let folder = (file as NSString).deletingLastPathComponent
        let app = (folder as NSString).lastPathComponent
        let isGroup = app == "groups"
        if !isGroup, isImportRecord(suite) {
            // The import record is not a suite: `rizq-prefs import` refuses its name.
            return "mv '\(file)' '\(folder)/\(suite).json' (it is the record of the app's imports; keep the newer one if both exist)"
        }
        return "rizq-prefs import --salvage " + (isGroup ? "" : "--app '\(app)' ") + "--suite '\(suite)' '\(file)'"
    }

    // MARK: Checks

    /// A root that does not exist yet: fine when its nearest existing ancestor is a folder this
    /// user can create it in.
    private func creatable(_ path: String) -> Finding {
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, ancestor != "/", Self.info(ancestor) == nil {
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        if let info = Self.info(ancestor.isEmpty ? "/" : ancestor), let problem = Self.locationProblem(ancestor, info) {
            return Finding(
                severity: .problem, path: path, message: "no suites yet, and the folder cannot be created: \(ancestor) \(problem.message)",
                fix: problem.fix + ", or set RIZQ_PREFS_HOME to a folder you can write")
        }
        return Finding(severity: .ok, path: path, message: "no suites yet (the folder is created at the first write)", fix: "")
    }

    /// Why `path` cannot hold suites (not a folder, or not writable), with the fix; `nil` when it can.
    private static func locationProblem(_ path: String, _ info: stat) -> (message: String, fix: String)? {
        if info.st_mode & S_IFMT != S_IFDIR {
            return ("is not a folder: no suite can be stored in it", "move it away (mv '\(path)' '\(path).moved') so that a folder can take its place")
        }
        guard access(path, W_OK | X_OK) != 0 else { return nil }
        let code = errno
        let reason = String(cString: strerror(code))
        switch code {
        case EROFS:
            return ("is on a read-only file system (\(reason)): every write fails", "remount it read-write")
        case EPERM:
            return ("cannot be written (\(reason)): it is immutable (chattr +i), every write fails", "chattr -i '\(path)'")
        default:
            return ("is not writable (\(reason)): every write fails", "chmod 700 '\(path)' and chown it to yourself")
        }
    }

    private func check(folder: String, _ info: stat) -> Finding {
        var own = stat()
        if folder != root, lstat(folder, &own) == 0, own.st_mode & S_IFMT == S_IFLNK {
            return Finding(
                severity: .problem, path: folder, message: "the folder is a symbolic link: suites are never read or written through links, so every open and write of its suites fails",
                fix: "replace the link by a real folder (rm '\(folder)' && mkdir -m 700 '\(folder)'), then move the suite files back in")
        }
        if let problem = Self.locationProblem(folder, info) {
            return Finding(severity: .problem, path: folder, message: "the location \(problem.message)", fix: problem.fix)
        }
        if info.st_uid != geteuid() {
            return Finding(severity: .problem, path: folder, message: "the folder belongs to user \(info.st_uid), not to you", fix: "chown -R $(id -u) '\(folder)'")
        }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 {
            return Finding(severity: .warning, path: folder, message: "the folder is mode \(String(mode, radix: 8)): other users can list it", fix: "chmod 700 '\(folder)'")
        }
        return Finding(severity: .ok, path: folder, message: "folder, yours, writable, mode \(String(mode, radix: 8))", fix: "")
    }

    private func check(suite: Entry) -> Finding {
        var info = stat()
        guard lstat(suite.path, &info) == 0 else {
            return Finding(severity: .problem, path: suite.path, message: "cannot read the file's status", fix: "check the folder's permissions")
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            return Finding(severity: .problem, path: suite.path, message: "the file is a symbolic link: suites are never read or written through links", fix: "move it away (mv '\(suite.path)' '\(suite.path).moved'), or replace it by the file it stands for")
        }
        // The same judgment as an open's (RegularFile.trust): kind, owner, mode.
        if let problem = RegularFile.trust.problem(with: info) {
            let (found, fix) = FileError(path: suite.path, operation: .read, problem: problem, subject: "suite file").finding
            return Finding(severity: .problem, path: suite.path, message: "the file " + found, fix: fix.isEmpty ? "run doctor again" : fix)
        }
        let mode = info.st_mode & 0o777
        let data: [UInt8]
        do {
            guard let read = try RegularFile.read(suite.path) else {
                return Finding(severity: .problem, path: suite.path, message: "the file is gone", fix: "run doctor again")
            }
            data = read.bytes
        } catch {
            if Int64(info.st_size) > Int64(RegularFile.sizeLimit) {
                return Finding(severity: .problem, path: suite.path, message: "the file is too large: \(RegularFile.tooLarge(Int64(info.st_size))); the suite cannot be opened", fix: "move it away (mv '\(suite.path)' '\(suite.path).moved')")
            }
            return Finding(severity: .problem, path: suite.path, message: "the file cannot be read (mode \(String(mode, radix: 8)))", fix: "chmod 600 '\(suite.path)'")
        }
        let count: Int
        let version: Int?
        do {
            // The same judgment as an open's (SuiteFile.read).
            guard case .object(let entries, let schemaVersion) = try JSONReader.parseSuiteFile(data) else {
                return Finding(severity: .problem, path: suite.path, message: "the top level is not a JSON object; the next open moves the file aside", fix: "repair it by hand (jq . '\(suite.path)'), or let the next open quarantine it")
            }
            count = entries.count
            version = schemaVersion?.version
            if let value = entries[SchemaVersionMember.key] {
                return Finding(
                    severity: .warning, path: suite.path,
                    message: "holds \"\(SchemaVersionMember.key)\": \(value.description), which is not a schema version (a whole number from 0): it is read as an ordinary key, and an app that opens the suite with a schema refuses to migrate it",
                    fix: "give it the suite's schema version, or remove it: rizq-prefs delete \(SchemaVersionMember.key) (with the suite's --app/--suite)")
            }
        } catch {
            return Finding(severity: .problem, path: suite.path, message: "not valid JSON: \(error); the next open moves the file aside", fix: "repair it by hand (jq . '\(suite.path)'), or let the next open quarantine it")
        }
        if mode & 0o077 != 0 {
            return Finding(severity: .problem, path: suite.path, message: "mode \(String(mode, radix: 8)): other users can read your preferences", fix: "chmod 600 '\(suite.path)'")
        }
        let schema = version.map { ", schema version \($0)" } ?? ""
        return Finding(severity: .ok, path: suite.path, message: "\(count) key\(count == 1 ? "" : "s")\(schema), valid JSON, mode \(String(mode, radix: 8))", fix: "")
    }

    // MARK: Listing

    /// The suite names among a folder's file names, sorted.
    func suiteNames(among names: [String]) -> [String] {
        names
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.contains(".corrupt-") }
            .map { String($0.dropLast(".json".count)) }
            .filter { SuiteLocation.problem(withName: $0) == nil }
            .sorted()
    }

    func names(in folder: String) throws(SuiteStoreError) -> [String] {
        guard let directory = opendir(folder) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return [] }
            throw .unreadable(path: folder, reason: String(cString: strerror(code)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // A name that is not valid UTF-8 is no suite's (a suite name is text): read with
            // U+FFFD in place of its bad bytes it would name another file, and two such files
            // the same suite. Left out here; doctor names them (``undecodableFiles()``).
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validating: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func info(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }
}
