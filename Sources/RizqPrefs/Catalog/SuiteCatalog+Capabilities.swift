import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// What `rizq-prefs doctor` says of the file system under the suites and of inotify: what the
/// same-key rule and change delivery can count on there, and which way the store takes where
/// something is missing.
extension SuiteCatalog {
    /// What the file system at `folder` can do, as tried there (``probe(_:)``).
    package struct FileSystemCapabilities: Sendable, Equatable {
        /// The file system's name (`ext4`, `tmpfs`, `nfs`, …; its magic number when unknown).
        package var kind: String
        /// Whether files there keep user extended attributes; `nil` when it could not be tried.
        package var extendedAttributes: Bool?
        /// Whether `renameat2(RENAME_EXCHANGE)` works there; `nil` when it could not be tried.
        package var atomicExchange: Bool?
        /// Whether inotify there sees every writer (`false` on a network or FUSE file system,
        /// where it sees only this machine's).
        package var inotifySeesOtherWriters: Bool
    }

    /// The findings on the file system and inotify: one for the file system of the suites'
    /// root (or of the nearest folder above it that exists), one for inotify's limits.
    package func capabilityFindings() -> [Finding] {
        var folder = root
        while !folder.isEmpty, folder != "/", access(folder, F_OK) != 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
        if folder.isEmpty { folder = "/" }
        let found = Self.probe(folder)
        var findings: [Finding] = []
        func yesNo(_ value: Bool?, _ unknown: String = "not tried (the folder is not writable)") -> String {
            value.map { $0 ? "yes" : "no" } ?? unknown
        }
        let exchange = found.atomicExchange == false
            ? "no (a write checks the file, then renames: a program that does not take the suite's lock could slip in between)"
            : yesNo(found.atomicExchange)
        let attributes = found.extendedAttributes == false
            ? "no (not needed: change times are kept in a change log file, .<suite>.changes)"
            : yesNo(found.extendedAttributes)
        let watching = found.inotifySeesOtherWriters
            ? "inotify sees other writers: yes (a local file system)"
            : "inotify sees other writers: only this machine's (a \(found.kind) file system): suites here are also checked every 0.25 s and at every read"
        findings.append(Finding(
            severity: found.inotifySeesOtherWriters ? .ok : .warning, path: folder,
            message: "file system \(found.kind): user extended attributes: \(attributes); atomic exchange (renameat2): \(exchange); \(watching); the same-key rule (the later change wins) keeps each change's time in the suite's change log, on every file system",
            fix: ""))
        let instances = InotifyLimits.instances
        let inUse = InotifyLimits.instancesInUse()
        let limit = min(instances.value ?? Int.max, instances.namespaceValue ?? Int.max)
        let crowded = inUse.map { limit != Int.max && $0 * 10 >= limit * 9 } ?? false
        let usage = inUse.map { " (\($0) in use by this user)" } ?? ""
        findings.append(Finding(
            severity: crowded ? .warning : .ok, path: "",
            message: "inotify limits: \(instances.words)\(usage), \(InotifyLimits.watches.words), \(InotifyLimits.queuedEvents.words); a process that finds one reached checks its suite files instead (every 0.25 s and at every read) and says so once",
            fix: crowded ? "raise the limit: sudo sysctl fs.inotify.max_user_instances=1024 (and in /etc/sysctl.d/ to keep it)" : ""))
        return findings
    }

    /// Tries, in `folder`, what the store relies on: two hidden probe files are made, given a
    /// user extended attribute and swapped with `RENAME_EXCHANGE`, then removed.
    package static func probe(_ folder: String) -> FileSystemCapabilities {
        var info = statfs()
        let type = statfs(folder, &info) == 0 ? UInt64(bitPattern: Int64(info.f_type)) & 0xFFFF_FFFF : 0
        let remote = FileWatcher.remoteFileSystem(folder)
        var result = FileSystemCapabilities(kind: remote ?? kindName(type), extendedAttributes: nil, atomicExchange: nil, inotifySeesOtherWriters: remote == nil)
        let base = folder + "/.rizq-prefs-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let first = open(base + "-a", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard first >= 0 else { return result }
        defer { unlink(base + "-a") }
        let second = open(base + "-b", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        defer {
            close(first)
            if second >= 0 {
                close(second)
                unlink(base + "-b")
            }
        }
        result.extendedAttributes = LinuxFileCalls.setAttribute("user.rizq-prefs.probe", to: [1], of: first)
        if second >= 0 {
            let code = LinuxFileCalls.exchange(base + "-a", base + "-b")
            result.atomicExchange = code == 0 ? true : (LinuxFileCalls.isUnsupported(code) ? false : nil)
        }
        return result
    }

    private static func kindName(_ type: UInt64) -> String {
        switch type {
        case 0xEF53: return "ext4"
        case 0x0102_1994: return "tmpfs"
        case 0x8584_58F6: return "ramfs"
        case 0x794C_7630: return "overlay"
        case 0x9123_683E: return "btrfs"
        case 0x5846_5342: return "xfs"
        case 0xF2F5_2010: return "f2fs"
        case 0x2FC1_2FC1: return "zfs"
        case 0x4D44: return "vfat"
        case 0x5346_544E: return "ntfs"
        case 0x2011_BAB0: return "exfat"
        default: return "of type 0x" + String(type, radix: 16)
        }
    }

    /// The files in the suites' folders (`groups`, each app's) whose names are not valid UTF-8,
    /// each as a shell word (`'/root/groups/'$'\xff''.json'`): what ``suites()`` leaves out.
    package func undecodableFiles() -> [String] {
        var folders = [SuiteLocation.groupsDirectory(root: root)]
        if let apps = opendir(root + "/apps") {
            while let entry = readdir(apps) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(validating: raw.prefix { $0 != 0 }, as: UTF8.self) }
                if let name, !name.hasPrefix(".") { folders.append(root + "/apps/" + name) }
            }
            closedir(apps)
        }
        var found: [String] = []
        for folder in folders {
            guard let directory = opendir(folder) else { continue }
            while let entry = readdir(directory) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                guard String(validating: bytes, as: UTF8.self) == nil else { continue }
                found.append(Self.shellWord(folder + "/", bytes))
            }
            closedir(directory)
        }
        return found.sorted()
    }

    /// `prefix` and `bytes` as one shell word: printable ASCII in single quotes, every other
    /// byte as `$'\xNN'`.
    private static func shellWord(_ prefix: String, _ bytes: [UInt8]) -> String {
        var word = "'" + prefix.replacingOccurrences(of: "'", with: "'\\''")
        var quoted = true
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "'") {
                if !quoted { word += "'" }
                quoted = true
                word += String(UnicodeScalar(byte))
            } else {
                if quoted { word += "'" }
                quoted = false
                word += "$'\\x" + String(byte, radix: 16) + "'"
            }
        }
        if quoted { word += "'" }
        return word
    }
}
