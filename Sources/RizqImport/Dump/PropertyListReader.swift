#if Secrets
import RizqPrefs

/// Reads a `defaults` property list, XML or binary, into the entries of an ``ImportDump``:
/// one per key of its top-level dictionary, in file order, each with its value's type kept
/// (``ImportDump/Entry/typedValue``).
///
/// A value a suite cannot hold (a keyed-archiver UID, NaN, a date beyond year 9999, a string
/// inside an array or dictionary that is not valid Unicode) does not fail the file: its entry
/// carries the reason (``ImportDump/Entry/problem``) and the import skips it and says why.
/// A top-level string key or value that is not valid Unicode is kept as stored
/// (``ImportDump/Entry/undecodable``), as for a browser's storage: skipped unless a plan
/// says `"undecodable": "replace"` or `"data"`.
enum PropertyListReader {
    /// The entries and the reading's warnings.
    struct Result {
        var encoding: ImportError.PropertyListProblem.Encoding
        var entries: [ImportDump.Entry]
        var warnings: [String]
    }

    /// Whether `bytes` start like a property list (`bplist`, or XML that opens with a
    /// declaration, a plist `DOCTYPE` or a `<plist>` element), so that a dump file is recognised
    /// as one without being told.
    static func looksLikePropertyList(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: BinaryPropertyListParser.magic) { return true }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start...]
        return ["<?xml", "<!DOCTYPE plist", "<plist"].contains { head.starts(with: $0.utf8) }
    }

    /// Reads `bytes`; `source` names the file in errors.
    /// - Throws: ``ImportError/dump(_:)``, holding ``ImportError/DumpProblem/propertyList(_:)``.
    static func read(_ bytes: [UInt8], source: String?) throws(ImportError) -> Result {
        guard looksLikePropertyList(bytes) else {
            throw .dump(.propertyList(ImportError.PropertyListProblem(file: source, encoding: nil, kind: .notPropertyList, offset: 0, reason: notPropertyListReason(bytes))))
        }
        let encoding: ImportError.PropertyListProblem.Encoding = bytes.starts(with: BinaryPropertyListParser.magic) ? .binary : .xml
        let parsed = encoding == .binary
            ? try BinaryPropertyListParser.parse(bytes, source: source)
            : try XMLPropertyListParser.parse(bytes, source: source)
        guard case .dictionary(let members) = parsed.root else {
            throw .dump(.propertyList(ImportError.PropertyListProblem(file: source, encoding: encoding, kind: .notDictionary, reason: "its top level is \(parsed.root.kindDescription)")))
        }
        let entries = members.map { member -> ImportDump.Entry in
            // A string key or value that is not valid Unicode: the importer's undecodable path,
            // where a plan may say what to do with it.
            switch (member.undecodableKey, member.value) {
            case (let key?, .string(let text)):
                return ImportDump.Entry(storedKey: key, storedValue: StoredString(text))
            case (let key, .undecodableString(let value)):
                return ImportDump.Entry(storedKey: key ?? StoredString(member.key), storedValue: value)
            case (let key?, let value):
                return ImportDump.Entry(key: member.key, problem: "the key is not valid Unicode (\(key.problem ?? "as stored")), and its value is \(value.kindDescription), which only a string key can carry into a suite")
            default:
                break
            }
            do throws(PropertyListNode.Unstorable) {
                return ImportDump.Entry(key: member.key, typedValue: try member.value.prefValue())
            } catch {
                return ImportDump.Entry(key: member.key, problem: error.reason)
            }
        }
        return Result(encoding: encoding, entries: entries, warnings: parsed.warnings)
    }

    /// What the bytes are instead, for the error.
    private static func notPropertyListReason(_ bytes: [UInt8]) -> String {
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start...]
        if head.isEmpty { return "the file is empty" }
        if head.starts(with: "SQLite format 3".utf8) { return "it is an SQLite database" }
        if head.first == UInt8(ascii: "{") || head.first == UInt8(ascii: "(") {
            let text = String(decoding: head.prefix(4096), as: UTF8.self)
            if text.contains(" = "), text.contains(";") || head.first == UInt8(ascii: "(") {
                return "it is old-style text, as `defaults read` prints it, which does not keep types (every number becomes text); export the domain with `defaults export DOMAIN file.plist` instead"
            }
        }
        if head.first == UInt8(ascii: "{") || head.first == UInt8(ascii: "[") {
            return "it is JSON, such as a localStorage dump, not a property list"
        }
        if head.prefix(512).contains(0) { return "it is a binary file that does not start with bplist" }
        return "it starts with neither bplist nor XML"
    }
}
#endif
