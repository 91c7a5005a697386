import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's inotify limits — what they are, and the one warning per cause when a limit is
/// reached (``FileWatcher``'s fallbacks) — and what `rizq-prefs doctor` shows of them.
enum InotifyLimits {
    /// One of the limits: its name for `sysctl`, the value in force for this machine, and the
    /// value of this user namespace where it is lower (`/proc/sys/user/max_inotify_*`).
    struct Limit: Equatable {
        var name: String
        var value: Int?
        var namespaceValue: Int?

        /// "max_user_instances 128" (", 10 in this user namespace").
        var words: String {
            var text = name + " " + (value.map(String.init) ?? "unknown")
            if let namespaceValue, namespaceValue < (value ?? Int.max) { text += " (\(namespaceValue) in this user namespace)" }
            return text
        }
    }

    static var instances: Limit {
        Limit(name: "max_user_instances", value: read("/proc/sys/fs/inotify/max_user_instances"), namespaceValue: read("/proc/sys/user/max_inotify_instances"))
    }

    static var watches: Limit {
        Limit(name: "max_user_watches", value: read("/proc/sys/fs/inotify/max_user_watches"), namespaceValue: read("/proc/sys/user/max_inotify_watches"))
    }

    static var queuedEvents: Limit {
        Limit(name: "max_queued_events", value: read("/proc/sys/fs/inotify/max_queued_events"), namespaceValue: nil)
    }

    /// How many inotify instances processes of this user hold now (counted in `/proc`, where
    /// this process can see them); `nil` when `/proc` cannot be read.
    static func instancesInUse() -> Int? {
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let user = geteuid()
        var count = 0
        var link = [CChar](repeating: 0, count: 64)
        for pid in pids where pid.first?.isNumber == true {
            var info = stat()
            guard stat("/proc/" + pid, &info) == 0, info.st_uid == user,
                let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { continue }
            for descriptor in descriptors {
                let length = readlink("/proc/\(pid)/fd/\(descriptor)", &link, link.count - 1)
                guard length > 0 else { continue }
                if String(decoding: link.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:inotify" { count += 1 }
            }
        }
        return count
    }

    private static func read(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .ascii)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    // MARK: The warnings, once per process

    static func warnNoInstance(_ code: Int32) {
        let cause = code == EMFILE
            ? "no inotify instance is left for this user (fs.inotify.\(instances.words) reached)"
            : "inotify cannot be used (\(Errno(rawValue: code).description))"
        OnceWarnings.warn(
            "inotify-instance",
            "\(cause): changes other processes make to suites are picked up by checking each suite file every 0.25 s and at every read, until an instance is free; raise the limit: sudo sysctl fs.inotify.max_user_instances=1024 (and in /etc/sysctl.d/ to keep it)")
    }

    static func warnNoWatch(_ folder: String) {
        OnceWarnings.warn(
            "inotify-watch",
            "no inotify watch is left for this user (fs.inotify.\(watches.words) reached) for \(folder): changes other processes make to its suites are picked up by checking each suite file every 0.25 s and at every read; raise the limit: sudo sysctl fs.inotify.max_user_watches=524288 (and in /etc/sysctl.d/ to keep it)")
    }

    static func warnOverflow() {
        OnceWarnings.warn(
            "inotify-overflow",
            "the inotify event queue overflowed (fs.inotify.\(queuedEvents.words)): every open suite was checked at once, so no change is lost; if it happens often, raise the limit: sudo sysctl fs.inotify.max_queued_events=65536")
    }

    static func warnRemote(_ folder: String, _ kind: String) {
        OnceWarnings.warn(
            "inotify-remote " + folder,
            "\(folder) is on a network file system (\(kind)), where inotify sees only this machine's writes: its suites are also checked every 0.25 s and at every read, so that other machines' writes show up")
    }
}
