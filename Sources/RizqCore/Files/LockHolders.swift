import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who holds a lock file's `flock`, read from `/proc/locks` by the file's device and inode: for
/// the error of a lock wait that timed out, which names the holder and what to do about it.
package enum LockHolders {
    /// One process holding the lock.
    package struct Holder: Equatable {
        package var pid: Int32
        /// Its command line, arguments joined by spaces (cut short); `nil` when it cannot be read.
        package var commandLine: String?
        /// Its state letter in `/proc/<pid>/stat`: `T` stopped, `t` stopped by a debugger, `D`
        /// waiting for a device, `R` running, `S` sleeping, …; `nil` when it cannot be read.
        package var state: Character?
    }

    /// The processes holding a lock (not waiting for it) on the file `device`/`inode`.
    package static func holders(device: UInt64, inode: UInt64, locks: String? = nil) -> [Holder] {
        guard let text = locks ?? (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) else { return [] }
        let wanted = String(format: "%02x:%02x:%llu", major(device), minor(device), inode)
        var found: [Holder] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: FLOCK  ADVISORY  WRITE 28557 fe:00:16220476 0 EOF"; a waiter has "->" after the number.
            guard fields.count >= 6, fields[1] != "->", fields[5] == Substring(wanted), let pid = Int32(fields[4]) else { continue }
            if found.contains(where: { $0.pid == pid }) { continue }
            found.append(Holder(pid: pid, commandLine: commandLine(of: pid), state: state(of: pid)))
        }
        return found
    }

    /// What to tell the user about `holders`: who they are, and what to do.
    package static func describe(_ holders: [Holder]) -> String {
        guard !holders.isEmpty else {
            return "no process holds it any more (it was let go just as the wait ended, or it is held from another PID namespace): try again"
        }
        return holders.map(describe).joined(separator: "; ")
    }

    package static func describe(_ holder: Holder) -> String {
        let pid = holder.pid
        let who = pid == getpid() ? "this process (pid \(pid))" : "pid \(pid)" + (holder.commandLine.map { " (\($0))" } ?? "")
        switch holder.state {
        case "T":
            return "\(who), which is stopped (SIGSTOP or Ctrl-Z): resume it (kill -CONT \(pid)) or end it (kill \(pid))"
        case "t":
            return "\(who), which is stopped by a debugger: let it go on, or end it (kill \(pid))"
        case "D":
            return "\(who), which is waiting for a device or a network file system: wait for it, check the disk or the mount, or end it (kill \(pid))"
        case "Z":
            return "\(who), which has exited but not been reaped by its parent: end its parent"
        case nil:
            return "\(who): wait for it to finish, or end it (kill \(pid))"
        default:
            return "\(who), which is running: it may be writing a very large suite, or be hung; wait for it, or end it (kill \(pid))"
        }
    }

    private static func commandLine(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    private static func state(of pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let rest = text[text.index(after: close)...].drop { $0 == " " }
        return rest.first
    }

    /// glibc's `gnu_dev_major` and `gnu_dev_minor`.
    private static func major(_ device: UInt64) -> UInt64 { ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff) }
    private static func minor(_ device: UInt64) -> UInt64 { (device & 0xff) | ((device >> 12) & ~0xff) }
}
