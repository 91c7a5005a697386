import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a suite file: a ``PrivateFile`` (RizqCore's one open with checks) judged as
/// preferences are (``FileTrust/settings(_:)``), bounded, with the change times an earlier
/// release kept in an extended attribute.
enum RegularFile {
    /// The largest suite file read or written: 256 MiB. A suite is a file of preferences read
    /// whole into memory; a larger one (or a sparse file claiming terabytes) is refused with an
    /// error instead of exhausting memory.
    static let sizeLimit = 256 << 20

    /// The rule every suite file is judged by, on reads and writes alike.
    static let trust = FileTrust.settings("suite file")

    /// The bytes of the suite file at `path`, its status and its ``ChangeTimes`` record; `nil`
    /// when there is no file. Anything ``trust`` refuses (a link, a FIFO or device, another
    /// user's file, one anyone can write) or larger than ``sizeLimit`` is refused, saying what
    /// it is and what to do.
    static func read(_ path: String, withTimes: Bool = true) throws(SuiteStoreError) -> (bytes: [UInt8], info: stat, times: ChangeTimes?)? {
        do {
            guard let file = try PrivateFile.open(path, trust: trust) else { return nil }
            let bytes = try file.readAll(limit: sizeLimit)
            let times = withTimes ? LinuxFileCalls.attribute(ChangeTimes.attributeName, of: file.descriptor).flatMap { ChangeTimes(encoded: $0) } : nil
            return (bytes, file.info, times)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    /// "it is N MiB, over …" for messages.
    static func tooLarge(_ size: Int64) -> String {
        "it is \(FileWords.size(size)), over the \(sizeLimit >> 20) MiB a suite file may hold"
    }
}

extension SuiteStore {
    /// The largest suite file read or written (256 MiB): what device sync keeps the merged
    /// synced keys under, so that the suite, its sync state and its replica stay writable.
    package static var fileSizeLimit: Int { RegularFile.sizeLimit }
}
