// The Chromium Local Storage reader: the input is a list of records (data items of a few origins
// with either string format byte, metadata, unknown keys, deletions), written with the real
// LevelDB library into a fresh database — sometimes compacted into a table — which the reader
// then reads from its private copy. Every live item comes back, and each origin's dump goes
// through a dry run of the importer.
import CFuzzStores
import Foundation
import FuzzSupport
import RizqImport
@_spi(Fuzzing) import RizqProfiles  // the readers and PrivateCopy: public only for the fuzzers

let scratch = Scratch()
let origins = ["https://app.rizq.io", "file://", "chrome-extension://abcdefghijklmnop"]
nonisolated(unsafe) var round = 0

/// Writes and deletes records in a new LevelDB at `folder`; returns false when LevelDB refused.
func write(_ folder: String, _ reader: inout FuzzedValue, live: inout Set<[UInt8]>) -> Bool {
    let options = leveldb_options_create()
    defer { leveldb_options_destroy(options) }
    leveldb_options_set_create_if_missing(options, 1)
    var error: UnsafeMutablePointer<CChar>?
    guard let database = leveldb_open(options, folder, &error) else {
        leveldb_free(error)
        return false
    }
    defer { leveldb_close(database) }
    let writeOptions = leveldb_writeoptions_create()
    defer { leveldb_writeoptions_destroy(writeOptions) }
    let compact = reader.byte() & 1 == 1
    var written: [[UInt8]] = []
    var count = 0
    while !reader.isAtEnd, count < 48 {
        count += 1
        var key: [UInt8]
        var value = reader.bytes(upTo: 600)
        switch reader.byte() % 8 {
        case 0, 1, 2, 3:
            let pick = Int(reader.byte())
            let origin = pick % 4 < origins.count ? Array(origins[pick % 4].utf8) : reader.bytes(upTo: 24).filter { $0 != 0 }
            // The key's format byte: 0 (UTF-16), 1 (Latin-1), or one Chromium never writes.
            let format: [UInt8] = pick & 0x30 == 0x30 ? reader.bytes(upTo: 1) : [UInt8(pick >> 4 & 1)]
            key = [UInt8(ascii: "_")] + origin + [0] + format + reader.bytes(upTo: 80)
            if pick & 0x40 == 0 { value = [UInt8(pick >> 7)] + value }
        case 4: key = Array("META:".utf8) + Array(origins[Int(reader.byte()) % origins.count].utf8)
        case 5: key = Array("VERSION".utf8)
        case 6: key = reader.bytes(upTo: 40)
        default:
            guard !written.isEmpty else { continue }
            key = written[Int(reader.byte()) % written.count]
            key.withUnsafeBufferPointer { keyBytes in
                keyBytes.withMemoryRebound(to: CChar.self) { leveldb_delete(database, writeOptions, $0.baseAddress, $0.count, &error) }
            }
            guard error == nil else {
                leveldb_free(error)
                return false
            }
            live.remove(key)
            continue
        }
        key.withUnsafeBufferPointer { keyBytes in
            value.withUnsafeBufferPointer { valueBytes in
                keyBytes.withMemoryRebound(to: CChar.self) { keyChars in
                    valueBytes.withMemoryRebound(to: CChar.self) { valueChars in
                        leveldb_put(database, writeOptions, keyChars.baseAddress, keyChars.count, valueChars.baseAddress, valueChars.count, &error)
                    }
                }
            }
        }
        guard error == nil else {
            leveldb_free(error)
            return false
        }
        written.append(key)
        if key.first == UInt8(ascii: "_"), key.contains(0) { live.insert(key) }
    }
    if compact { leveldb_compact_range(database, nil, 0, nil, 0) }
    return true
}

runFuzzer { input in
    round += 1
    let folder = scratch.root + "/leveldb-\(round)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var reader = FuzzedValue(input)
    var live = Set<[UInt8]>()
    guard write(folder, &reader, live: &live) else { return }
    guard let copy = try? PrivateCopy() else { return require(false, "no private copy folder") }
    defer { copy.remove() }
    let read: [StoredOrigin]
    do {
        read = try ChromiumLocalStorageReader().read(folder: folder, in: copy)
    } catch {
        return require(false, "a database LevelDB wrote does not read: \(error)")
    }
    let items = read.reduce(0) { $0 + $1.items.count }
    require(items == live.count, "\(live.count) items written, \(items) read")
    for origin in read {
        dryRunImport(origin.dump(format: .chromiumLevelDB, source: folder), root: scratch.root)
    }
}
