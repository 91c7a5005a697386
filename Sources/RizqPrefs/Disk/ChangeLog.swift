/// The record of when each key of a suite was last changed, kept beside the suite file in
/// `.<suite>.changes`: what decides a same-key conflict between processes (the later *change*
/// wins, whichever process writes last: the pending changes' rebase, in Open/).
///
/// Each write appends one segment, under the suite's lock and before the suite file's atomic
/// swap: the times of the changes it carries, the version of the suite file it writes (its
/// ``FileStamp``: device, inode, size, modification time) and the version it replaces, with a
/// checksum. The record of a version is found by walking from the segment that names it back
/// through the versions it replaced (``times(of:)``), so that
///
/// - a write costs the size of its own changes, whatever the number of keys changed lately (the
///   extended attribute this replaces had a 2,048-byte budget and dropped a key's time beyond
///   it, after which the earlier change won);
/// - it works on every file system: a file and `O_APPEND` (ramfs, tmpfs before Linux 6.6, NFS,
///   vfat and FUSE keep no user extended attributes);
/// - a segment whose write never happened (a crash, or the write found the file replaced and
///   went back) names a version that no later segment replaces: it is never walked;
/// - a torn segment (a crash in the middle of an append) fails its checksum, and reading starts
///   again at the next segment's marker.
///
/// The log is compacted (``compacted(for:now:)``) when it grows well past what the recent
/// writes need: segments older than ``horizon`` fold into a floor.
struct ChangeLog {
    /// One write's entry.
    struct Segment: Equatable {
        /// The version of the suite file this write made.
        var version: FileStamp
        /// The version it replaced; `nil` when there was no file.
        var parent: FileStamp?
        /// When the write was made (the coarse clock of ``WallClock``).
        var writtenAt: Int64
        /// Set for a segment that stands for every change before it: each key not in `keys`
        /// was last changed at or before this time (a compaction's base, or a write that emptied
        /// the suite, whose clear changed every key). `nil` for one write's own changes.
        var floor: Int64?
        /// The time of each key's change in this write (the last one, for a key changed twice),
        /// keyed as the pending changes it comes from are, so that making it hashes no key.
        var keys: [PendingKey: Int64]
    }

    /// How far back a compaction keeps each key's own time: a pending change older than this
    /// (a write blocked for minutes) is judged against the floor, as any change older than
    /// the record.
    static let horizon: Int64 = 10 * 60 * 1_000_000_000
    /// A log smaller than this is never compacted.
    static let compactionSize = 1 << 20

    /// The segments, oldest first (the torn and the broken left out).
    var segments: [Segment]

    /// The record for the suite file at `version`, or `nil` when no segment names it (the file
    /// was written by hand, by an older release, or while the log could not be written).
    func times(of version: FileStamp) -> ChangeTimes? {
        // By version (FileStamp.Version): a segment names the file before its rename into place,
        // which moved the file's change time on.
        var byVersion: [FileStamp.Version: Int] = [:]
        byVersion.reserveCapacity(segments.count)
        for (index, segment) in segments.enumerated() { byVersion[segment.version.version] = index }
        guard var index = byVersion[version.version] else { return nil }
        var keys: [String: Int64] = [:]
        var floor: Int64 = 0
        // Each version once, so that a log that somehow names a cycle still ends.
        var seen: Set<Int> = []
        while seen.insert(index).inserted {
            let segment = segments[index]
            for (key, time) in segment.keys where time > keys[key.key] ?? Int64.min {
                keys[key.key] = time
            }
            if let segmentFloor = segment.floor {
                floor = max(floor, segmentFloor)
                break
            }
            guard let parent = segment.parent else { break }
            guard let earlier = byVersion[parent.version], earlier < index else {
                // The version before is not in the log (written by hand or by an older release,
                // or compacted away): its keys count as changed when it was written.
                floor = max(floor, parent.modifiedTime)
                break
            }
            index = earlier
        }
        // Listed keys not later than the floor add nothing.
        return ChangeTimes(floor: floor, keys: keys.filter { $0.value > floor })
    }

    /// The log reduced to one segment for `version` — its record, with the keys changed within
    /// ``horizon`` of `now` and the rest folded into the floor — or `nil` when no segment names
    /// `version` (then nothing of the log is of use).
    func compacted(for version: FileStamp, now: Int64) -> ChangeLog? {
        guard let record = times(of: version), let newest = segments.last(where: { $0.version.isSameVersion(as: version) }) else { return nil }
        let cutoff = now - Self.horizon
        var floor = record.floor
        var keys: [PendingKey: Int64] = [:]
        for (key, time) in record.keys {
            if time < cutoff { floor = max(floor, time) } else { keys[PendingKey(key)] = time }
        }
        return ChangeLog(segments: [Segment(version: version, parent: nil, writtenAt: newest.writtenAt, floor: floor, keys: keys.filter { $0.value > floor })])
    }
}

// MARK: The bytes

extension ChangeLog {
    /// What starts every segment: reading resumes at the next one after a torn segment.
    static let marker: [UInt8] = Array("RZCHLOG1".utf8)

    /// A segment's bytes: the marker, the payload's length (4 bytes), the payload, and the
    /// payload's 64-bit checksum (``checksum(_:)``). The payload: a kind byte (1 one write's changes, 2 a
    /// floor), the version, a byte saying whether a parent follows and the parent, the time of
    /// the write, the floor, the number of keys, and each key's time, UTF-8 length and UTF-8.
    /// Integers little-endian; a version is its device, inode, size, seconds and nanoseconds.
    static func encode(_ segment: Segment) -> [UInt8] {
        encode(version: segment.version, parent: segment.parent, writtenAt: segment.writtenAt, floor: segment.floor, keys: segment.keys) { $0 }
    }

    /// The bytes of the segment of `version` (``encode(_:)``) whose keys were changed at
    /// `time(keys[key])`: a write's pending changes are recorded where they are, with no table
    /// of their times made first (half a megabyte of memory for a 10,000-key write).
    static func encode<Value>(
        version: FileStamp, parent: FileStamp?, writtenAt: Int64, floor: Int64?, keys: [PendingKey: Value], time: (Value) -> Int64
    ) -> [UInt8] {
        let recordsSize = keys.keys.reduce(0) { $0 + 12 + $1.key.utf8.count }
        var header: [UInt8] = []
        header.reserveCapacity(marker.count + 4 + 96)
        header += marker
        append(0, 4, to: &header)  // the payload's length, filled in below
        header.append(floor == nil ? 1 : 2)
        append(version, to: &header)
        header.append(parent == nil ? 0 : 1)
        if let parent { append(parent, to: &header) }
        append(UInt64(bitPattern: writtenAt), 8, to: &header)
        append(UInt64(bitPattern: floor ?? 0), 8, to: &header)
        append(UInt64(keys.count), 4, to: &header)
        let payloadStart = marker.count + 4
        // The whole segment written straight into an array of its size: the records in place
        // (appending them integer by integer was most of the cost of a large write's segment),
        // and no second copy of the payload behind the marker.
        return [UInt8](unsafeUninitializedCapacity: header.count + recordsSize + 8) { buffer, written in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            header.withUnsafeBytes { raw.copyMemory(from: $0) }
            var records = RecordWriter(buffer: UnsafeMutableRawBufferPointer(rebasing: raw[header.count..<(header.count + recordsSize)]))
            for (key, value) in keys {
                var name = key.key
                name.withUTF8 { utf8 in records.append(time: time(value), key: UnsafeRawBufferPointer(utf8)) }
            }
            let payloadEnd = header.count + records.offset
            raw.storeBytes(of: UInt32(truncatingIfNeeded: payloadEnd - payloadStart).littleEndian, toByteOffset: marker.count, as: UInt32.self)
            let sum = checksum(UnsafeRawBufferPointer(rebasing: raw[payloadStart..<payloadEnd]))
            raw.storeBytes(of: sum.littleEndian, toByteOffset: payloadEnd, as: UInt64.self)
            written = payloadEnd + 8
        }
    }

    /// The segments in `bytes`: each one whose checksum holds, in order. Anything else (a torn
    /// append, garbage) is passed over up to the next marker.
    init(decoding bytes: [UInt8]) {
        var segments: [Segment] = []
        var offset = 0
        let markerLength = Self.marker.count
        while offset + markerLength + 12 <= bytes.count {
            guard bytes[offset..<(offset + markerLength)].elementsEqual(Self.marker) else {
                offset = Self.nextMarker(in: bytes, after: offset)
                continue
            }
            var reader = ByteReader(bytes: bytes, offset: offset + markerLength)
            guard let length = reader.integer(4).map(Int.init), reader.offset + length + 8 <= bytes.count else {
                offset = Self.nextMarker(in: bytes, after: offset)
                continue
            }
            let payload = bytes[reader.offset..<(reader.offset + length)]
            var trailer = ByteReader(bytes: bytes, offset: reader.offset + length)
            guard trailer.integer(8) == Self.checksum(payload), let segment = Self.decodePayload(Array(payload)) else {
                offset = Self.nextMarker(in: bytes, after: offset)
                continue
            }
            segments.append(segment)
            offset = trailer.offset
        }
        self.segments = segments
    }

    private static func decodePayload(_ payload: [UInt8]) -> Segment? {
        var reader = ByteReader(bytes: payload, offset: 0)
        guard let kind = reader.byte(), kind == 1 || kind == 2, let version = reader.stamp(), let hasParent = reader.byte() else { return nil }
        var parent: FileStamp?
        if hasParent == 1 {
            guard let read = reader.stamp() else { return nil }
            parent = read
        }
        guard let writtenAt = reader.integer(8), let floor = reader.integer(8), let count = reader.integer(4) else { return nil }
        var keys: [PendingKey: Int64] = [:]
        keys.reserveCapacity(Int(min(count, 1 << 20)))
        for _ in 0..<count {
            guard let time = reader.integer(8), let length = reader.integer(4), let utf8 = reader.bytes(Int(length)),
                let key = String(validating: utf8, as: UTF8.self)
            else { return nil }
            keys[PendingKey(key)] = Int64(bitPattern: time)
        }
        guard reader.offset == payload.count else { return nil }
        return Segment(
            version: version, parent: parent, writtenAt: Int64(bitPattern: writtenAt), floor: kind == 2 ? Int64(bitPattern: floor) : nil, keys: keys)
    }

    private static func nextMarker(in bytes: [UInt8], after offset: Int) -> Int {
        var position = offset + 1
        while position + marker.count <= bytes.count {
            if bytes[position] == marker[0], bytes[position..<(position + marker.count)].elementsEqual(marker) { return position }
            position += 1
        }
        return bytes.count
    }

    /// A checksum against torn writes, not against tampering: FNV-1a's step taken a 64-bit word
    /// at a time (little-endian, the last word padded with zeros), then the length. Each step
    /// is a bijection of the running value for a given word, so a payload that differs from the
    /// written one in a single word never passes. (FNV-1a a byte at a time, its first form, was
    /// one serial multiplication per byte: a fifth of a millisecond for the 200 KB segment of a
    /// 10,000-key write.)
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes(checksum)
    }

    /// ``checksum(_:)`` of the bytes in `raw`.
    static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* prime
            offset += 8
        }
        if offset < raw.count {
            var word: UInt64 = 0
            for index in offset..<raw.count { word |= UInt64(raw[index]) << (8 * UInt64(index - offset)) }
            hash = (hash ^ word) &* prime
        }
        return (hash ^ UInt64(raw.count)) &* prime
    }

    /// Writes a segment's key records into memory sized for them: each stops short rather than
    /// write past the end (the size is counted from the same keys, so it never has to).
    private struct RecordWriter {
        let buffer: UnsafeMutableRawBufferPointer
        var offset = 0

        mutating func append(time: Int64, key: UnsafeRawBufferPointer) {
            guard offset + 12 + key.count <= buffer.count else { return }
            buffer.storeBytes(of: UInt64(bitPattern: time).littleEndian, toByteOffset: offset, as: UInt64.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: key.count).littleEndian, toByteOffset: offset + 8, as: UInt32.self)
            UnsafeMutableRawBufferPointer(rebasing: buffer[(offset + 12)..<(offset + 12 + key.count)]).copyMemory(from: key)
            offset += 12 + key.count
        }
    }

    private static func append(_ stamp: FileStamp, to bytes: inout [UInt8]) {
        append(stamp.device, 8, to: &bytes)
        append(stamp.inode, 8, to: &bytes)
        append(UInt64(bitPattern: stamp.size), 8, to: &bytes)
        append(UInt64(bitPattern: Int64(stamp.modifiedSeconds)), 8, to: &bytes)
        append(UInt64(bitPattern: Int64(stamp.modifiedNanoseconds)), 8, to: &bytes)
    }

    private static func append(_ value: UInt64, _ width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// Reads little-endian integers and byte runs, failing (`nil`) past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var offset: Int

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            offset += 1
            return bytes[offset - 1]
        }

        mutating func integer(_ width: Int) -> UInt64? {
            guard offset + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            offset += width
            return value
        }

        mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, offset + count <= bytes.count else { return nil }
            offset += count
            return bytes[(offset - count)..<offset]
        }

        mutating func stamp() -> FileStamp? {
            guard let device = integer(8), let inode = integer(8), let size = integer(8), let seconds = integer(8), let nanoseconds = integer(8)
            else { return nil }
            return FileStamp(
                device: device, inode: inode, size: Int64(bitPattern: size), modifiedSeconds: Int(Int64(bitPattern: seconds)),
                modifiedNanoseconds: Int(Int64(bitPattern: nanoseconds)))
        }
    }
}

extension ChangeLog {
    /// What a write records of its own changes; its versions (the file it writes and the one
    /// it replaces) are added where they are known (``SuiteFile/replace(bytes:changes:over:_:)``).
    struct Changes {
        /// Each key's change the write carries (its time is what the log records).
        var keys: [PendingKey: PendingChange]
        /// The time of a clear (every key removed) the write carries; `nil`: none.
        var floor: Int64?
        /// When the write was made.
        var writtenAt: Int64

        /// A write at `now` of `keys`, after a clear at `floor` (`nil`: none).
        init(keys: [PendingKey: PendingChange], floor: Int64?, now: Int64) {
            self.keys = keys
            self.floor = floor
            writtenAt = now
        }

        /// A write at `now` that puts back a file whose keys were last changed at `times` (a
        /// revert): the new version's record is that file's, whole (a floor), so that it
        /// counts as no change of its own.
        init(restoring times: ChangeTimes, now: Int64) {
            keys = Dictionary(uniqueKeysWithValues: times.keys.lazy.map { (PendingKey($0.key), PendingChange(time: $0.value, base: nil)) })
            floor = times.floor
            writtenAt = now
        }

        /// The bytes of this write's segment, for the version `version` of the file that
        /// replaced `parent`.
        func segmentBytes(version: FileStamp, parent: FileStamp?) -> [UInt8] {
            ChangeLog.encode(version: version, parent: parent, writtenAt: writtenAt, floor: floor, keys: keys) { $0.time }
        }
    }
}
