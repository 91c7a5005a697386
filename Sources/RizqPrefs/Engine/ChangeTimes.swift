/// When the keys of one version of the suite file were last changed, as far as its writer knew:
/// what decides a same-key conflict between processes (the later change wins, whichever process
/// writes last), kept with the file in an extended attribute (``attributeName``).
///
/// The file's modification time alone cannot decide: a process that changed a key *after*
/// another process but flushes *later* than that process's write would lose to a change older
/// than its own. So each write records the time of every change it carries, carries over the
/// recent records of the file it replaces, and keeps a ``floor``: every change to a key not
/// listed was made at or before it. A file without the attribute (written by hand, by an older
/// version, on a file system without user attributes) reads as "every key changed at the
/// file's modification time", the rule from before.
struct ChangeTimes: Sendable, Equatable {
    /// The extended attribute that holds the record, on the suite file itself, so that it is
    /// replaced together with the contents (the same inode, the same atomic rename).
    static let attributeName = "user.rizq-prefs.change-times"
    /// How long a record is kept: pending changes older than this are rare (a flush blocked
    /// that long), and are judged by the floor.
    static let window: Int64 = 60 * 1_000_000_000
    /// Room for the record: ext4 keeps all of a file's attributes in one block (4 KiB); the
    /// oldest records go first.
    static let byteBudget = 2048

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

    /// The record for a new version of the file: this one's, with `changes` (this process's
    /// changes that the new version carries) on top, trimmed to the window and the budget.
    func adding(_ changes: PendingChanges, now: Int64) -> ChangeTimes {
        var result = self
        if let clear = changes.clear {
            // A clear changed every key: those not listed are as new as it.
            result.floor = max(result.floor, clear.time)
            result.keys = result.keys.filter { $0.value > clear.time }
        }
        for (key, change) in changes.changes where change.time >= result.time(of: key) {
            result.keys[key] = change.time
        }
        return result.trimmed(now: now)
    }

    private func trimmed(now: Int64) -> ChangeTimes {
        var result = ChangeTimes(floor: floor, keys: [:])
        var size = 9
        for (key, time) in keys.sorted(by: { $0.value > $1.value }) {
            let cost = 12 + key.utf8.count
            if time < now - Self.window || size + cost > Self.byteBudget {
                result.floor = max(result.floor, time)
            } else {
                result.keys[key] = time
                size += cost
            }
        }
        return result
    }

    // MARK: The attribute's bytes

    /// Version 1: a version byte, the floor, then for each key its time, the length of its
    /// UTF-8 and the UTF-8; integers little-endian.
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
            keys[String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self)] = Int64(bitPattern: time)
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
