import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file that must be a regular file of bounded size: a suite file, as an open reads
/// it and as `doctor` judges it.
enum RegularFile {
    /// The largest suite file read or written: 256 MiB. A suite is a file of preferences read
    /// whole into memory; a larger one (or a sparse file claiming terabytes) is refused with an
    /// error instead of exhausting memory.
    static let sizeLimit = 256 << 20

    /// The bytes of the regular file at `path`, its status and its ``ChangeTimes`` record;
    /// `nil` when there is no file. The open does not block (a FIFO or a device at the path
    /// would hang a plain open or read) and does not follow a symbolic link; anything but a
    /// regular file of at most ``sizeLimit`` bytes is refused, saying what it is and what to do.
    static func read(_ path: String, withTimes: Bool = true) throws(SuiteStoreError) -> (bytes: [UInt8], info: stat, times: ChangeTimes?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw .unreadable(path: path, reason: "it is a symbolic link (to \(FileProblem.linkTarget(path))), and suite files are never read or written through links, so that no file elsewhere is touched; replace the link by the file itself (cp --remove-destination \"$(readlink -f '\(path)')\" '\(path)')")
            }
            throw .unreadable(path: path, reason: FileProblem.message(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: FileProblem.message(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "it is \(FileProblem.kindName(info.st_mode)), not a regular file, so it is not read; move it away (mv '\(path)' '\(path).moved') and the suite starts afresh")
        }
        guard Int64(info.st_size) <= Int64(sizeLimit) else {
            throw .unreadable(path: path, reason: tooLarge(Int64(info.st_size)) + "; move it away (mv '\(path)' '\(path).moved'), and keep large data in files of your own")
        }
        let bytes: [UInt8]
        do {
            bytes = try DescriptorIO.readToEnd(descriptor, sizeHint: Int(info.st_size), limit: sizeLimit)
        } catch {
            throw .unreadable(path: path, reason: error == .fileTooLarge ? tooLarge(Int64(sizeLimit) + 1) : error.description)
        }
        let times = withTimes ? LinuxFileCalls.attribute(ChangeTimes.attributeName, of: descriptor).flatMap { ChangeTimes(encoded: $0) } : nil
        return (bytes, info, times)
    }

    /// "it is N MiB, over …" for messages.
    static func tooLarge(_ size: Int64) -> String {
        "it is \(size >> 20) MiB, over the \(sizeLimit >> 20) MiB a suite file may hold"
    }
}
