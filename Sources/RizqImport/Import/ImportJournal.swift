import Foundation
import RizqCore
import RizqJSON
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// What a running import has written to the secret store, on disk before each write, so that
/// an import killed outright (SIGKILL, a power cut) can be cleaned up by the next one: the
/// secrets it created are removed, and what could not be undone is named.
///
/// The journal is `<root>/apps/<app id>/.rizq-import-<run>.journal`, mode 0600, JSON lines:
/// a header (the import id, its run's id, the process, when it started), then one line before
/// each secret write — its service, its account and whether the account held a secret before —
/// and one before each suite commit (the suite and its keys). Never a value. Each line is on
/// disk (`fdatasync`) before the write it announces.
///
/// The running import holds an exclusive `flock` on its journal for as long as it runs, so that
/// another process can tell a running import (the lock is taken) from a dead one. A finished
/// import, or one whose rollback undid everything, removes its journal.
package final class ImportJournal {
    /// The file name's prefix and suffix: `.rizq-import-<run>.journal`.
    static let namePrefix = ".rizq-import-"
    static let nameSuffix = ".journal"

    /// The journal's path.
    package let path: String
    /// This run's id, also kept in the record of a finished import.
    package let run: String
    /// The import's id.
    package let importID: String
    private let descriptor: Int32

    private init(path: String, run: String, importID: String, descriptor: Int32) {
        self.path = path
        self.run = run
        self.importID = importID
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The folder of an app's journals (where its record is).
    static func folder(appID: String, root: String) -> String {
        root + "/apps/" + appID
    }

    /// Starts the journal of a run of import `importID`, locked, its header on disk.
    /// - Throws: ``SuiteStoreError/writeFailed(path:reason:)`` when it cannot be written: the
    ///   import must not begin.
    static func begin(importID: String, appID: String, root: String) throws(SuiteStoreError) -> ImportJournal {
        let folder = folder(appID: appID, root: root)
        let run = UUID().uuidString.lowercased()
        let path = folder + "/" + namePrefix + run + nameSuffix
        // Made under a name recovery does not look at, locked, then renamed: recovery never sees
        // a journal that is not locked by its running import.
        let temporary = path + ".tmp"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed(path: path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: Errno.current.description) }
        let journal = ImportJournal(path: path, run: run, importID: importID, descriptor: descriptor)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            unlink(temporary)
            throw .writeFailed(path: path, reason: "cannot lock it: \(Errno.current.description)")
        }
        do {
            try journal.appendHeader()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = Errno.current.description
            unlink(temporary)
            throw .writeFailed(path: path, reason: reason)
        }
        return journal
    }

    /// Notes, before the write, that `account` of `service` is about to be written; `existed`:
    /// it held a secret before (which the journal cannot bring back: it never holds a value).
    func willWriteSecret(service: String, account: String, existed: Bool) throws(SuiteStoreError) {
        try append(["secret": ["service": .string(service), "account": .string(account), "existed": .bool(existed)]])
    }

    /// Notes, before the commit, that `keys` are about to be written to `suite`.
    func willCommitSuite(_ suite: String, keys: [String]) throws(SuiteStoreError) {
        try append(["suite": ["name": .string(suite), "keys": .array(keys.map(PrefValue.string))]])
    }

    /// Replaces what the journal says was written by `secrets` (what a rollback could not undo),
    /// so that the next import removes those and no other.
    func keepOnly(secrets: [(service: String, account: String, existed: Bool)]) {
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = try? appendHeader()
        for secret in secrets {
            _ = try? willWriteSecret(service: secret.service, account: secret.account, existed: secret.existed)
        }
    }

    /// Removes the journal: the import finished, or its rollback undid everything.
    func finish() {
        unlink(path)
    }

    private func appendHeader() throws(SuiteStoreError) {
        try append([
            "journal": 1, "import": .string(importID), "run": .string(run), "pid": .int(Int(getpid())), "started": .date(Date()),
        ])
    }

    private func append(_ line: PrefValue) throws(SuiteStoreError) {
        let text: String
        do {
            text = try JSONWriter.string(line, pretty: false)
        } catch {
            throw .writeFailed(path: path, reason: "the journal line cannot be written as JSON: \(error)")
        }
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        do {
            try DescriptorIO.writeAll(bytes, to: descriptor)
        } catch {
            throw .writeFailed(path: path, reason: error.description)
        }
        if fdatasync(descriptor) != 0 { throw .writeFailed(path: path, reason: Errno.current.description) }
    }
}

// MARK: Reading and recovering

extension ImportJournal {
    /// A journal left by an import that is no longer running.
    package struct Unfinished: Sendable {
        /// The journal's path.
        package var path: String
        /// The app whose import it was.
        package var appID: String
        /// The import's id (`nil` when the header is unreadable).
        package var importID: String?
        /// The run's id.
        package var run: String?
        /// The process that ran it.
        package var pid: Int?
        /// When it started.
        package var started: Date?
        /// The secrets it was about to write, in order: service, account, whether one was there before.
        package var secrets: [(service: String, account: String, existed: Bool)] = []
        /// The suites it was about to commit, with their keys.
        package var suites: [(name: String, keys: [String])] = []

        /// "import 'ID' (process 123, started …)".
        package var title: String {
            var parts: [String] = []
            if let pid { parts.append("process \(pid)") }
            if let started { parts.append("started \(started.formatted(.iso8601))") }
            return "import '\(importID ?? "?")'" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
        }
    }

    /// The journals under `root` (of `appID`, or of every app) whose import is no longer running:
    /// each is locked for a moment to tell (a running import holds its lock). Changes nothing.
    package static func unfinished(appID: String? = nil, root: String) -> [Unfinished] {
        var found: [Unfinished] = []
        let apps = appID.map { [$0] } ?? ((try? FileManager.default.contentsOfDirectory(atPath: root + "/apps")) ?? []).sorted()
        for app in apps {
            let folder = folder(appID: app, root: root)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for name in names where name.hasPrefix(namePrefix) && name.hasSuffix(nameSuffix) {
                if let journal = withUnlocked(folder + "/" + name, { $0 }) {
                    var unfinished = journal
                    unfinished.appID = app
                    found.append(unfinished)
                }
            }
        }
        return found
    }

    /// Reads the journal at `path` and calls `body` while holding its lock; `nil` when its import
    /// is still running (or the file is gone).
    static func withUnlocked<Result>(_ path: String, _ body: (Unfinished) -> Result) -> Result? {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while let count = try? DescriptorIO.read(descriptor, into: &chunk, from: 0), count > 0 {
            bytes += chunk[0..<count]
        }
        return body(parse(bytes, path: path))
    }

    /// The lines of a journal; a line cut short by a kill (the last one) is ignored: the write it
    /// announced had not begun.
    static func parse(_ bytes: [UInt8], path: String) -> Unfinished {
        var journal = Unfinished(path: path, appID: "")
        for line in bytes.split(separator: 0x0A) {
            guard case .dictionary(let object)? = try? JSONReader.parse(Data(line)) else { continue }
            if case .string(let id)? = object["import"] { journal.importID = id }
            if case .string(let run)? = object["run"] { journal.run = run }
            if case .int(let pid)? = object["pid"] { journal.pid = pid }
            if case .date(let date)? = object["started"] { journal.started = date }
            if case .dictionary(let secret)? = object["secret"], case .string(let service)? = secret["service"],
                case .string(let account)? = secret["account"] {
                let existed = secret["existed"] == .bool(true)
                if !journal.secrets.contains(where: { $0.service == service && $0.account == account }) {
                    journal.secrets.append((service, account, existed))
                }
            }
            if case .dictionary(let suite)? = object["suite"], case .string(let name)? = suite["name"] {
                var keys: [String] = []
                if case .array(let list)? = suite["keys"] { keys = list.compactMap { if case .string(let key) = $0 { key } else { nil } } }
                journal.suites.append((name, keys))
            }
        }
        return journal
    }
}
