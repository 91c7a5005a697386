import RizqCore

/// This process's mounts, from `/proc/self/mountinfo`: how a mounted folder tells a Kubernetes
/// `subPath` mount (a bind mount of one generation's file, which never updates) from a file that
/// is simply there.
///
/// Each line of mountinfo is `ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS … - TYPE SOURCE …`
/// (proc(5)); ROOT is the path of the mounted file or folder inside its file system, and both
/// paths escape a space, tab, newline and backslash as `\040`, `\011`, `\012`, `\134`. A
/// `subPath` mount's ROOT goes through kubelet's generation folder:
///
///     63 43 254:0 /var/lib/kubelet/pods/…/volumes/kubernetes.io~configmap/cfg/..2026_11_29_06_06_31.85866966/app.yaml /etc/app/app.yaml …
///
/// (a Secret's volume is a tmpfs of its own, so there ROOT is `/..2026_…/app.yaml`); once kubelet
/// has deleted that generation, ROOT ends in `//deleted`.
package struct MountTable: Sendable {
    /// One mount: where it is seen, and what of its file system it shows.
    package struct Mount: Sendable, Equatable {
        /// The path inside its file system of what is mounted (ROOT).
        package var root: String
        /// Where it is mounted, in this process's view (MOUNT-POINT).
        package var mountPoint: String
    }

    /// Every mount, in the order of the table (later mounts over earlier ones).
    package var mounts: [Mount]

    /// The largest mount table read (a container's is a few KiB; a busy host's a few hundred).
    static let limit = 4 << 20

    /// This process's table; `nil` when `/proc` cannot be read (no `/proc` mounted, a sandbox).
    package static func current() -> MountTable? {
        guard let read = try? PrivateFile.read("/proc/self/mountinfo", trust: .hostProvided("mount table"), limit: limit) else { return nil }
        return parse(read.bytes)
    }

    /// The table in `bytes` (mountinfo's format); malformed lines are skipped.
    package static func parse(_ bytes: [UInt8]) -> MountTable {
        var mounts: [Mount] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { continue }
            mounts.append(Mount(root: unescape(fields[3]), mountPoint: unescape(fields[4])))
        }
        return MountTable(mounts: mounts)
    }

    /// The mount whose mount point is `path` (the last one: it is what the path shows), if any.
    package func mount(at path: String) -> Mount? {
        mounts.last { $0.mountPoint == path }
    }

    /// The mounts at `folder` itself or at a path inside it, by the path relative to `folder`
    /// (`""` for the folder); the last mount wins.
    package func mounts(under folder: String) -> [String: Mount] {
        var found: [String: Mount] = [:]
        let prefix = folder == "/" ? "/" : folder + "/"
        for mount in mounts {
            if mount.mountPoint == folder {
                found[""] = mount
            } else if mount.mountPoint.hasPrefix(prefix) {
                found[String(mount.mountPoint.dropFirst(prefix.count))] = mount
            }
        }
        return found
    }

    /// The kubelet generation folder `root` goes through (`..2026_11_29_06_06_31.85866966`), or
    /// `nil`: a component that starts with `..`, is longer than that and is not `..data` or
    /// `..data_tmp` (kubelet's names; older kubelets named generations differently, always with
    /// the `..` prefix).
    package static func kubeletGeneration(in root: String) -> String? {
        root.split(separator: "/").first { component in
            component.hasPrefix("..") && component.count > 2 && component != "..data" && component != "..data_tmp"
        }.map(String.init)
    }

    /// Whether the mounted file was deleted at its source (mountinfo's `//deleted` suffix).
    package static func isDeleted(_ root: String) -> Bool {
        root.hasSuffix("//deleted")
    }

    /// A mountinfo path with its octal escapes (`\040`) decoded.
    static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(UInt8(ascii: "\\")) else { return String(decoding: field, as: UTF8.self) }
        var bytes: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "\\"), index + 3 < field.endIndex, let value = octal(field[(index + 1)..<(index + 4)]) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Three octal digits as a byte (at most `\377`).
    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }
}
