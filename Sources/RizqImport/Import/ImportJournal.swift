#if Secrets
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
/// The journal is `<state root>/apps/<app id>/.rizq-import-<run>.journal`, mode 0600, JSON lines
/// — the state root being where the host keeps its trust base for the suites' root
/// (``RizqCore/SandboxReach/stateRoot(forSuitesRoot:)``: `$XDG_STATE_HOME/rizq-prefs` for the
/// default root, which sandboxed apps may be given; the root itself for a root of its own):
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
    package var path: String { journal.path }
    /// This run's id, also kept in the record of a finished import.
    package let run: String
    /// The import's id.
    package let importID: String
    /// RizqCore's journal: lines on disk before their step, the lock held while the import runs.
    private let journal: FileJournal

    private init(journal: FileJournal, run: String, importID: String) {
        self.journal = journal
        self.run = run
        self.importID = importID
    }

    /// The folder of an app's journals.
    static func folder(appID: String, root: String) -> String {
        SandboxReach.stateRoot(forSuitesRoot: root) + "/apps/" + appID
    }

    /// Where earlier releases kept an app's journals (beside its record, in the suites' root),
    /// when that is not ``folder(appID:root:)``: a folder sandboxed apps may be given, whose
    /// journals are never acted on (``recover(appID:root:secretStore:)``).
    static func untrustedFolder(appID: String, root: String) -> String? {
        let old = root + "/apps/" + appID
        return old == folder(appID: appID, root: root) ? nil : old
    }

    /// Starts the journal of a run of import `importID`, locked, its header on disk.
    /// - Throws: ``SuiteStoreError/writeFailed(path:reason:)`` when it cannot be written: the
    ///   import must not begin.
    static func begin(importID: String, appID: String, root: String) throws(SuiteStoreError) -> ImportJournal {
        let run = UUID().uuidString.lowercased()
        let path = folder(appID: appID, root: root) + "/" + namePrefix + run + nameSuffix
        do {
            let journal = try FileJournal.begin(path, lines: [try header(importID: importID, run: run)], subject: "import journal")
            return ImportJournal(journal: journal, run: run, importID: importID)
        } catch let error as FileError {
            throw .writeFailed(path: path, reason: error.reason)
        } catch let error as SuiteStoreError {
            throw error
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")
        }
    }

    /// Notes, before the write, that `account` of `service` is about to be written; `existed`:
    /// it held a secret before (which the journal cannot bring back: it never holds a value).
    func willWriteSecret(service: String, account: String, existed: Bool) throws(SuiteStoreError) {
        try append(Self.secretLine(service: service, account: account, existed: existed))
    }

    /// Notes, before the commit, that `keys` are about to be written to `suite`.
    func willCommitSuite(_ suite: String, keys: [String]) throws(SuiteStoreError) {
        try append(["suite": ["name": .string(suite), "keys": .array(keys.map(PrefValue.string))]])
    }

    /// Replaces what the journal says was written by `secrets` (what a rollback could not undo),
    /// so that the next import removes those and no other.
    func keepOnly(secrets: [(service: String, account: String, existed: Bool)]) {
        guard let header = try? Self.header(importID: importID, run: run) else { return }
        var lines = [header]
        for secret in secrets {
            guard let line = try? Self.encode(Self.secretLine(service: secret.service, account: secret.account, existed: secret.existed)) else { continue }
            lines.append(line)
        }
        _ = try? journal.rewrite(lines)
    }

    /// Removes the journal: the import finished, or its rollback undid everything.
    func finish() {
        _ = try? journal.finish()
    }

    private static func header(importID: String, run: String) throws(SuiteStoreError) -> [UInt8] {
        try encode(["journal": 1, "import": .string(importID), "run": .string(run), "pid": .int(Int(getpid())), "started": .date(Date())])
    }

    private static func secretLine(service: String, account: String, existed: Bool) -> PrefValue {
        ["secret": ["service": .string(service), "account": .string(account), "existed": .bool(existed)]]
    }

    private static func encode(_ line: PrefValue) throws(SuiteStoreError) -> [UInt8] {
        do {
            return Array(try JSONWriter.string(line, pretty: false).utf8)
        } catch {
            throw .writeFailed(path: "import journal", reason: "the journal line cannot be written as JSON: \(error)")
        }
    }

    private func append(_ line: PrefValue) throws(SuiteStoreError) {
        let bytes = try Self.encode(line)
        do {
            try journal.append(bytes)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
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
        /// The folder sandboxed apps may be given that it was found in (where earlier releases
        /// kept journals): a sandbox could have written it, so it is never acted on. `nil` for a
        /// journal in the host's own state folder.
        package var untrustedFolder: String?

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
    /// Journals found where earlier releases kept them, in a folder sandboxed apps may be given,
    /// carry its path in ``Unfinished/untrustedFolder``.
    package static func unfinished(appID: String? = nil, root: String) -> [Unfinished] {
        var found: [Unfinished] = []
        let stateRoot = SandboxReach.stateRoot(forSuitesRoot: root)
        var apps = appID.map { [$0] } ?? PrivateFolder.names(in: stateRoot + "/apps")
        if appID == nil, stateRoot != root { apps += PrivateFolder.names(in: root + "/apps") }
        for app in Set(apps).sorted() {
            let folders = [(folder(appID: app, root: root), false)] + (untrustedFolder(appID: app, root: root).map { [($0, true)] } ?? [])
            for (folder, untrusted) in folders {
                for name in PrivateFolder.names(in: folder).sorted() where name.hasPrefix(namePrefix) && name.hasSuffix(nameSuffix) {
                    if var journal = withUnlocked(folder + "/" + name, { $0 }) {
                        journal.appID = app
                        journal.untrustedFolder = untrusted ? root : nil
                        found.append(journal)
                    }
                }
            }
        }
        return found
    }

    /// Reads the journal at `path` and calls `body` while holding its lock; `nil` when its import
    /// is still running (or the file is gone).
    static func withUnlocked<Result>(_ path: String, _ body: (Unfinished) -> Result) -> Result? {
        FileJournal.withUnlocked(path) { lines in body(parse(lines, path: path)) }
    }

    /// The lines of a journal; a line cut short by a kill (the last one) is ignored: the write it
    /// announced had not begun.
    static func parse(_ lines: [[UInt8]], path: String) -> Unfinished {
        var journal = Unfinished(path: path, appID: "")
        for line in lines {
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
#endif
