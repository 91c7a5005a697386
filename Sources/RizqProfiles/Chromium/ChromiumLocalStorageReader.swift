#if Secrets
import Foundation
import RizqImport

/// Reads a Chromium-family browser's or an Electron app's `Local Storage/leveldb` folder with
/// the real LevelDB library.
///
/// The records Chromium keeps there:
///
/// | key | value |
/// | --- | --- |
/// | `VERSION` | the schema version (`1`) |
/// | `META:<origin>` | the origin's size and last write (protobuf): not data |
/// | `METAACCESS:<origin>` | the origin's last access (protobuf): not data |
/// | `_<origin>` `0x00` `<key>` | `<value>` |
///
/// where `<key>` and `<value>` carry a format byte (`ChromiumStorageString`). The origin is
/// the serialized origin (`https://app.rizq.io`, `file://`, `app://obsidian.md`,
/// `chrome-extension://<id>`).
@_spi(Fuzzing) public struct ChromiumLocalStorageReader: Sendable {
    /// A reader.
    public init() {}

    /// Reads the LevelDB folder `folder` (in the profile) from a private copy made in `copy`.
    /// - Throws: ``ProfileError``: ``ProfileError/notAProfile(path:reason:)`` when the folder
    ///   is no LevelDB database, ``ProfileError/damaged(path:reason:)`` naming the damaged file.
    public func read(folder: String, in copy: PrivateCopy) throws(ProfileError) -> [StoredOrigin] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { throw .notFound(path: folder) }
        guard isFolder.boolValue, FileManager.default.fileExists(atPath: folder + "/CURRENT") else {
            throw .notAProfile(path: folder, reason: "it is no LevelDB database (there is no CURRENT file)")
        }
        let copied = try copy.copyFolder(
            folder, as: "leveldb",
            // LOCK is the running browser's; LOG and LOG.old are the library's diagnostics.
            skip: { ["LOCK", "LOG", "LOG.old"].contains($0) },
            stable: { !$0.hasSuffix(".log") })

        let database: LevelDBDatabase
        do {
            database = try LevelDBDatabase(folder: copied)
        } catch {
            throw Self.problem(error.message, folder: folder, copy: copy)
        }
        var collector = Collector()
        do {
            try database.forEachRecord { key, value in collector.add(key: key, value: value) }
        } catch {
            throw Self.problem(error.message, folder: folder, copy: copy)
        }
        return collector.origins()
    }

    /// The error for a LevelDB message, naming the profile's file. The library reads only the
    /// private copy, which was readable when it was made: its I/O errors and corruption reports
    /// mean damaged files (a table shorter than the MANIFEST says, a bad checksum), unless the
    /// copy's disk is full.
    private static func problem(_ message: String, folder: String, copy: PrivateCopy) -> ProfileError {
        let text = copy.sourceText(message)
        if text.contains("does not match existing comparator") {
            return .notAProfile(path: folder, reason: "it is a LevelDB database of another kind (IndexedDB or an extension's storage), not Local Storage: \(text)")
        }
        if text.contains("create_if_missing") {
            return .notAProfile(path: folder, reason: text)
        }
        if text.contains("No space left") {
            return .copyFailed(path: folder, reason: text)
        }
        return .damaged(path: namedFile(in: text, folder: folder) ?? folder, reason: text)
    }

    /// The file of `folder` that a library message names ("…: /home/…/leveldb/000005.ldb: …").
    static func namedFile(in message: String, folder: String) -> String? {
        guard let range = message.range(of: folder + "/") else { return nil }
        let name = message[range.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
        return name.isEmpty ? nil : folder + "/" + name
    }

    /// Gathers the data records by origin, in key order.
    private struct Collector {
        var byOrigin: [String: [StoredItem]] = [:]
        var order: [String] = []
        var unknownRecords = 0
        var originWarnings: [String: [String]] = [:]

        mutating func add(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            guard key.first == UInt8(ascii: "_") else {
                if !Self.isMetadata(key) { unknownRecords += 1 }
                return
            }
            guard let separator = key.firstIndex(of: 0) else {
                unknownRecords += 1
                return
            }
            let originBytes = Array(key[1..<separator])
            let originString = StoredString(utf8: originBytes)
            let origin = originString.displayText
            if byOrigin[origin] == nil {
                order.append(origin)
                if !originString.isText {
                    originWarnings[origin, default: []].append("the origin's name is not UTF-8 (\(originString.problem ?? "")); it is shown with escapes")
                }
            }
            let item = StoredItem(
                key: ChromiumStorageString.decode(UnsafeRawBufferPointer(rebasing: key[(separator + 1)...])),
                value: ChromiumStorageString.decode(value))
            byOrigin[origin, default: []].append(item)
        }

        static func isMetadata(_ key: UnsafeRawBufferPointer) -> Bool {
            for prefix in ["META:", "METAACCESS:", "VERSION"] where key.starts(with: prefix.utf8) {
                return true
            }
            return false
        }

        func origins() -> [StoredOrigin] {
            order.map { origin in
                var warnings = originWarnings[origin] ?? []
                if unknownRecords > 0 {
                    warnings.append("\(unknownRecords) record(s) of a kind this reader does not know were left out (not localStorage items)")
                }
                return StoredOrigin(origin: origin, items: byOrigin[origin] ?? [], warnings: warnings)
            }
        }
    }
}
#endif
