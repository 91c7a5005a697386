#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// What one import reads: the `localStorage` of one web origin (a dump file, or a browser's own
/// storage read by `RizqProfiles`) or an Apple app's `defaults` (a property list): its keys and
/// values in input order.
///
/// Five formats are read, detected from the file's shape or chosen with ``Format``:
///
/// | format | what writes it | shape |
/// | --- | --- | --- |
/// | ``Format/object`` | `JSON.stringify(localStorage)` | `{"key": "value", …}` |
/// | ``Format/pairs`` | `JSON.stringify(Object.entries(localStorage))` | `[["key", "value"], …]` |
/// | ``Format/playwright`` | Playwright's `context.storageState({path})` | `{"cookies": […], "origins": [{"origin": …, "localStorage": [{"name": …, "value": …}]}]}` |
/// | ``Format/cypress`` | Cypress's `cy.getAllLocalStorage()` | `{"https://origin": {"key": "value"}}` |
/// | ``Format/devtools`` | the DevTools protocol's `DOMStorage.getDOMStorageItems` | `{"entries": [["key", "value"], …]}` |
/// | ``Format/plist`` | `defaults export`, an app's `Library/Preferences/<id>.plist`, Foundation's `UserDefaults` on Linux (`~/.config/<suite>.plist`) | an XML or binary property list whose top level is a dictionary |
///
/// ```swift
/// let dump = try ImportDump(contentsOfFile: "state.json", origin: "https://app.rizq.io")
/// for entry in dump.entries { print(entry.key) }
/// ```
///
/// A key that appears twice keeps its last value, as in the browser, with a warning. Values
/// that are not strings (a file written by a script rather than a browser) are taken as their
/// JSON text, with a warning. Inputs larger than ``maximumSize``, not UTF-8, not JSON, or
/// truncated are refused with the position of the problem.
///
/// A browser's own storage (a Chromium `Local Storage/leveldb` folder, a `*.localstorage` or
/// Firefox database) is read by the `RizqProfiles` module, which builds the dump with
/// ``init(storedItems:origin:format:source:warnings:)``: there a key or value may be stored
/// bytes that are not valid Unicode (``Entry/undecodable``).
///
/// A property list keeps its types: each entry's ``Entry/typedValue`` is the value as the plist
/// holds it (bool, integer, real, string, date, data, nested arrays and dictionaries), and the
/// importer writes it as such. It is recognised by its first bytes (`bplist`, or XML); errors
/// are ``ImportError/dump(_:)`` holding ``ImportError/DumpProblem/propertyList(_:)``.
///
/// ```swift
/// let settings = try ImportDump(contentsOfFile: "com.rizq.app.plist")
/// settings.entries.first?.typedValue   // .date(…), .int(12), .data(…), …
/// ```
public struct ImportDump: Sendable, Equatable {
    /// Where the entries came from: a dump file's format (the `--format` names of the
    /// command-line tool, ``dumpFileFormats``), or a browser's own storage read by `RizqProfiles`.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// `{"key": "value", …}`.
        case object
        /// `[["key", "value"], …]`.
        case pairs
        /// A Playwright `storageState` file.
        case playwright
        /// Cypress `getAllLocalStorage()` output: `{"origin": {"key": "value"}}`.
        case cypress
        /// The DevTools-protocol shape `{"entries": [["key", "value"], …]}`.
        case devtools
        /// An Apple `defaults` property list, XML or binary, with typed values.
        case plist
        /// A Chromium-family browser's or Electron app's `Local Storage/leveldb` folder.
        case chromiumLevelDB = "chromium-leveldb"
        /// A legacy Chrome/WebKit `*.localstorage` SQLite file (`ItemTable`).
        case webkitSQLite = "webkit-localstorage"
        /// A Firefox origin's `ls/data.sqlite` (LSNG).
        case firefoxLSNG = "firefox-lsng"
        /// Firefox's older `webappsstore.sqlite`.
        case firefoxWebappsstore = "firefox-webappsstore"

        /// The formats of dump files, which ``ImportDump/init(contentsOfFile:format:origin:)``
        /// reads; the others are browsers' own storage (`rizq-prefs import-app --from`).
        public static let dumpFileFormats: [Format] = [.object, .pairs, .playwright, .cypress, .devtools, .plist]
    }

    /// What a value was in the dump file before it became a string.
    public enum ValueKind: String, Sendable, Codable {
        /// A JSON string: what a browser writes.
        case string
        /// A JSON number.
        case number
        /// `true` or `false`.
        case boolean
        /// `null`.
        case null
        /// A JSON object.
        case object
        /// A JSON array.
        case array
        /// A property-list date.
        case date
        /// Property-list data.
        case data
    }

    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        /// The `localStorage` key (for an undecodable key: its ``StoredString/displayText``).
        public var key: String
        /// The value, as `localStorage.getItem(key)` returned it (for a non-string value in the
        /// file: its JSON text; for an undecodable value: its ``StoredString/displayText``,
        /// which the importer never writes).
        public var value: String
        /// What the value was in the file (``ValueKind/string`` for browser dumps).
        public var originalKind: ValueKind
        /// Set when the key or the value, as the browser stored it, is not valid Unicode. The
        /// importer then skips the entry with this reason unless a plan says otherwise
        /// (``ImportPlan/UndecodableAction``).
        public var undecodable: Undecodable?
        /// The value with its type, from a source that keeps types (a property list); `nil` for
        /// `localStorage`, whose values are strings. ``value`` then holds the string itself, or
        /// the value's JSON text as a suite file writes it.
        public var typedValue: PrefValue?
        /// Why the value cannot be imported at all: a property-list value a suite cannot hold (a
        /// keyed-archiver UID, NaN, a date beyond year 9999, a string inside it that is not valid
        /// Unicode). The import skips the key and reports this. Never holds a value.
        public var problem: String?

        /// An entry with a string value.
        public init(key: String, value: String, originalKind: ValueKind = .string) {
            self.key = key
            self.value = value
            self.originalKind = originalKind
            self.undecodable = nil
        }

        /// An entry as a browser stored it; ``undecodable`` is set when either part is not text.
        public init(storedKey: StoredString, storedValue: StoredString) {
            self.key = storedKey.displayText
            self.value = storedValue.displayText
            self.originalKind = .string
            self.undecodable = Undecodable(key: storedKey, value: storedValue)
        }

        /// An entry whose value keeps its type.
        public init(key: String, typedValue: PrefValue) {
            self.key = key
            self.typedValue = typedValue
            switch typedValue {
            case .string(let text):
                value = text
            default:
                // Suite values are finite, so the writer does not fail; "" would only hide a bug.
                value = (try? JSONWriter.string(typedValue)) ?? ""
            }
            originalKind = Self.kind(of: typedValue)
        }

        /// An entry that cannot be imported, and why.
        public init(key: String, problem: String, originalKind: ValueKind = .string) {
            self.key = key
            self.value = ""
            self.originalKind = originalKind
            self.problem = problem
        }

        private static func kind(of value: PrefValue) -> ValueKind {
            switch value {
            case .string: return .string
            case .bool: return .boolean
            case .int, .unsigned, .double: return .number
            case .date: return .date
            case .data: return .data
            case .array: return .array
            case .dictionary: return .object
            case .null: return .null
            }
        }
    }

    /// The stored key and value of an entry of which at least one is not valid Unicode.
    public struct Undecodable: Sendable, Equatable {
        /// The key as stored.
        public var key: StoredString
        /// The value as stored.
        public var value: StoredString

        /// `nil` when both are text.
        public init?(key: StoredString, value: StoredString) {
            guard !key.isText || !value.isText else { return nil }
            self.key = key
            self.value = value
        }

        /// What is wrong, for the report: "the key is …", "the value is …" (never a value).
        public var reason: String {
            var parts: [String] = []
            if let problem = key.problem { parts.append("the key is not valid Unicode: \(problem)") }
            if let problem = value.problem { parts.append("the value is not valid Unicode: \(problem)") }
            return parts.joined(separator: "; ")
        }
    }

    /// The largest input read: 64 MiB (browsers allow about 5 MiB of `localStorage` per origin).
    public static let maximumSize = 64 << 20

    /// The format the input was read as.
    public let format: Format
    /// The origin the entries belong to, when the file said (Playwright, Cypress).
    public let origin: String?
    /// The entries in dump order; each key once.
    public let entries: [Entry]
    /// What was odd about the input but did not stop the reading: repeated keys, non-string
    /// values, other origins, cookies left behind. Never holds a value.
    public let warnings: [String]
    /// `sha256:` and the SHA-256 of the input bytes: identifies this input in the import record.
    public let digest: String
    /// The file the dump was read from, if any.
    public let source: String?

    /// Reads the dump in `path`.
    /// - Parameters:
    ///   - path: the dump file.
    ///   - format: the format to read; `nil` detects it from the file's shape.
    ///   - origin: for files that hold several origins (Playwright, Cypress): the one to read.
    /// - Throws: ``ImportError/dump(_:)``.
    public init(contentsOfFile path: String, format: Format? = nil, origin: String? = nil) throws(ImportError) {
        let bytes = try Self.readFile(path)
        try self.init(bytes: bytes, source: path, format: format, origin: origin)
    }

    /// Reads a dump from `bytes` (see ``init(contentsOfFile:format:origin:)``); `source` names it
    /// in messages.
    public init(bytes: [UInt8], source: String? = nil, format: Format? = nil, origin: String? = nil) throws(ImportError) {
        guard bytes.count <= Self.maximumSize else {
            throw .dump(.tooLarge(file: source, size: bytes.count, limit: Self.maximumSize))
        }
        if format == .plist || (format == nil && PropertyListReader.looksLikePropertyList(bytes)) {
            let read = try PropertyListReader.read(bytes, source: source)
            self.format = .plist
            self.origin = nil
            self.entries = read.entries
            self.warnings = (origin.map { ["the origin \($0) was not needed: a property list holds one app's preferences"] } ?? []) + read.warnings
            self.digest = "sha256:" + InputDigest.hex(bytes)
            self.source = source
            return
        }
        let parsed: JSONDocument
        do {
            parsed = try JSONNode.parseWebJSONDocument(bytes)
        } catch {
            // The reader accepts only valid UTF-8, so the input is checked for it only when the
            // parse fails: then a binary file is called that, at its first bad byte, rather
            // than "unexpected character".
            if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
                throw .dump(.notUTF8(file: source, position: SourcePosition(offset: bad, in: bytes), hint: Self.binaryHint(bytes)))
            }
            throw .dump(.notJSON(file: source, position: SourcePosition(offset: error.offset, in: bytes), reason: error.fileReason, hint: Self.binaryHint(bytes)))
        }
        var reader = DumpShapeReader(bytes: bytes, source: source)
        let read = try reader.read(parsed.root, format: format, origin: origin)
        var warnings = reader.warnings
        if parsed.replacedSurrogates > 0 {
            warnings.append("\(parsed.replacedSurrogates) lone UTF-16 surrogate escape(s) (half of an emoji, cut by the web app) became U+FFFD")
        }
        self.format = read.format
        self.origin = read.origin
        self.entries = read.entries
        self.warnings = warnings
        self.digest = "sha256:" + InputDigest.hex(bytes)
        self.source = source
    }

    /// A dump built in code, e.g. from a web view's storage: `pairs` in order, the last of a
    /// repeated key winning.
    public init(pairs: [(key: String, value: String)], origin: String? = nil) {
        var entries: [Entry] = []
        var positions: [String: Int] = [:]
        var canonical: [UInt8] = []
        for (key, value) in pairs {
            if let existing = positions[key] {
                entries[existing].value = value
            } else {
                positions[key] = entries.count
                entries.append(Entry(key: key, value: value))
            }
        }
        for entry in entries {
            for text in [entry.key, entry.value] {
                canonical.append(contentsOf: "\(text.utf8.count):".utf8)
                canonical.append(contentsOf: text.utf8)
            }
        }
        self.format = .pairs
        self.origin = origin
        self.entries = entries
        self.warnings = []
        self.digest = "sha256:" + InputDigest.hex(canonical)
        self.source = nil
    }

    /// A dump of one origin as a browser stored it (built by the `RizqProfiles` readers): items
    /// in the order given; a key stored twice keeps its last value, with a warning. The digest
    /// is taken over the origin and the stored bytes, so that reading the same unchanged
    /// storage again gives the same digest (and an import runs once).
    public init(storedItems: [(key: StoredString, value: StoredString)], origin: String?, format: Format, source: String?, warnings: [String] = []) {
        var entries: [Entry] = []
        var positions: [String: Int] = [:]
        var canonical: [UInt8] = Array("\(format.rawValue)\n\(origin ?? "")\n".utf8)
        var repeated = 0
        for (key, value) in storedItems {
            let entry = Entry(storedKey: key, storedValue: value)
            if let existing = positions[entry.key] {
                entries[existing] = entry
                repeated += 1
            } else {
                positions[entry.key] = entries.count
                entries.append(entry)
            }
            for part in [key, value] {
                canonical.append(contentsOf: "\(part.encoding.rawValue):\(part.bytes.count):".utf8)
                canonical.append(contentsOf: part.bytes)
            }
        }
        var allWarnings = warnings
        if repeated > 0 { allWarnings.append("\(repeated) key(s) were stored more than once; the last value of each was read") }
        self.format = format
        self.origin = origin
        self.entries = entries
        self.warnings = allWarnings
        self.digest = "sha256:" + InputDigest.hex(canonical)
        self.source = source
    }

    /// The value of `key`, or `nil`.
    public subscript(key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// The keys, in dump order.
    public var keys: [String] { entries.map(\.key) }

    // MARK: Reading the file

    private static func readFile(_ path: String) throws(ImportError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw .dump(.unreadable(file: path, reason: reason))
        }
        defer { try? handle.close() }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .dump(.unreadable(file: path, reason: "it is a folder, not a file")) }
            if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maximumSize {
                // Refused before reading: a huge file is not loaded into memory just to be rejected.
                throw .dump(.tooLarge(file: path, size: Int(info.st_size), limit: maximumSize))
            }
        }
        do {
            // One byte more than the limit tells a too-large pipe from one at the limit.
            let data = try handle.read(upToCount: maximumSize + 1) ?? Data()
            guard data.count <= maximumSize else {
                throw ImportError.dump(.tooLarge(file: path, size: data.count, limit: maximumSize))
            }
            return [UInt8](data)
        } catch let error as ImportError {
            throw error
        } catch {
            throw .dump(.unreadable(file: path, reason: "\(error.localizedDescription)"))
        }
    }

    /// What a file that is not a JSON dump probably is, for the error message.
    private static func binaryHint(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: Array("SQLite format 3".utf8)) {
            return "this is an SQLite database, such as a browser's own storage file; export a JSON dump instead"
        }
        if bytes.prefix(512).contains(0) {
            return "this looks like a binary file"
        }
        return nil
    }
}
#endif
