/// When the keys of one version of the suite file were last changed, as far as its writer knew:
/// what decides a same-key conflict between processes (the later change wins, whichever process
/// writes last). ``ChangeLog`` keeps it for each version; a file written by an earlier release
/// may carry it in an extended attribute (``attributeName``), which is still read.
///
/// The file's modification time alone cannot decide: a process that changed a key *after*
/// another process but flushes *later* than that process's write would lose to a change older
/// than its own. So the record lists the time of each key changed lately and keeps a ``floor``:
/// every change to a key not listed was made at or before it. A version with no record
/// (written by hand, or while the log could not be written) reads as "every key changed at the
/// file's modification time".
struct ChangeTimes: Sendable, Equatable {
    /// The extended attribute in which an earlier release kept the record, on the suite file
    /// itself. Read (from the same descriptor as the contents), never written: it had room for
    /// 2,048 bytes and dropped a key's time beyond them, and many file systems keep no user
    /// attributes at all.
    static let attributeName = "user.rizq-prefs.change-times"

    /// Every change to a key not in ``keys`` was made at or before this time (nanoseconds
    /// since 1970).
    var floor: Int64
    /// The time of the last change of each recently changed key.
    var keys: [String: Int64]

    /// The record of a file that has none: every key as old as the file.
    static func unrecorded(modifiedAt time: Int64) -> ChangeTimes {
        ChangeTimes(floor: time, keys: [:])
    }

    /// When `key` was last changed, at the latest.
    func time(of key: String) -> Int64 {
        keys[key] ?? floor
    }

    // MARK: The attribute's bytes

    /// Version 1, the earlier release's: a version byte, the floor, then for each key its time,
    /// the length of its UTF-8 and the UTF-8; integers little-endian.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [1]
        Self.append(UInt64(bitPattern: floor), 8, to: &bytes)
        for (key, time) in keys {
            Self.append(UInt64(bitPattern: time), 8, to: &bytes)
            Self.append(UInt64(key.utf8.count), 4, to: &bytes)
            bytes.append(contentsOf: key.utf8)
        }
        return bytes
    }

    /// The record in `bytes`; `nil` when they are not one this version writes (then the file
    /// counts as unrecorded).
    init?(encoded bytes: [UInt8]) {
        guard bytes.first == 1, bytes.count >= 9 else { return nil }
        var offset = 1
        func integer(_ width: Int) -> UInt64? {
            guard offset + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            offset += width
            return value
        }
        guard let floor = integer(8) else { return nil }
        var keys: [String: Int64] = [:]
        while offset < bytes.count {
            guard let time = integer(8), let length = integer(4), offset + Int(length) <= bytes.count else { return nil }
            guard let key = String(validating: bytes[offset..<(offset + Int(length))], as: UTF8.self) else { return nil }
            keys[key] = Int64(bitPattern: time)
            offset += Int(length)
        }
        self.init(floor: Int64(bitPattern: floor), keys: keys)
    }

    init(floor: Int64, keys: [String: Int64]) {
        self.floor = floor
        self.keys = keys
    }

    private static func append(_ value: UInt64, _ width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}
