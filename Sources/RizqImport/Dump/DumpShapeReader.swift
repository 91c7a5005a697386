#if Secrets
import RizqPrefs
import RizqJSON

/// Turns a parsed dump file into entries: detects the format from the shape (or checks the one
/// asked for), chooses the origin, and collects repeated keys and non-string values as warnings.
struct DumpShapeReader {
    typealias Format = ImportDump.Format
    typealias Entry = ImportDump.Entry

    struct Result {
        var format: Format
        var origin: String?
        var entries: [Entry]
    }

    let bytes: [UInt8]
    let source: String?
    private(set) var warnings: [String] = []

    init(bytes: [UInt8], source: String?) {
        self.bytes = bytes
        self.source = source
    }

    mutating func read(_ root: JSONNode, format explicit: Format?, origin: String?) throws(ImportError) -> Result {
        let format: Format
        if let explicit { format = explicit } else { format = try detect(root) }
        if let origin, [.object, .pairs, .devtools].contains(format) {
            warnings.append("the origin \(origin) was not needed: a \(format.rawValue) dump holds one origin's storage")
        }
        switch format {
        case .object:
            guard let members = root.members else { throw expected("an object of key → value", for: .object, found: root) }
            return Result(format: .object, origin: nil, entries: try collect(members.map { ($0.key, $0.keyOffset, $0.value) }))
        case .pairs:
            guard let elements = root.elements else { throw expected("an array of [key, value] pairs", for: .pairs, found: root) }
            return Result(format: .pairs, origin: nil, entries: try collect(try pairs(elements)))
        case .devtools:
            guard let entries = root["entries"], let elements = entries.elements else {
                throw expected("an object {\"entries\": [[key, value], …]}", for: .devtools, found: root["entries"] ?? root)
            }
            return Result(format: .devtools, origin: nil, entries: try collect(try pairs(elements)))
        case .playwright:
            return try readPlaywright(root, origin: origin)
        case .cypress:
            return try readCypress(root, origin: origin)
        case .chromiumLevelDB, .webkitSQLite, .firefoxLSNG, .firefoxWebappsstore:
            throw .dump(.wrongShape(
                file: source, position: position(0),
                reason: "\(format.rawValue) is a browser's own storage, not a dump file; read it with `rizq-prefs import-app --from PATH` (the RizqProfiles module)"))
        case .plist:
            // ImportDump sends property lists to PropertyListReader before any JSON is parsed.
            throw .dump(.wrongShape(file: source, position: position(root.range.lowerBound), reason: "a property list is not read as JSON"))
        }
    }

    // MARK: Detection

    private func detect(_ root: JSONNode) throws(ImportError) -> Format {
        switch root.kind {
        case .array:
            return .pairs
        case .object(let members):
            if let origins = root["origins"], origins.elements != nil { return .playwright }
            if members.count == 1, members[0].key == "entries", members[0].value.elements != nil { return .devtools }
            if !members.isEmpty, members.allSatisfy({ $0.value.members != nil && Self.looksLikeOrigin($0.key) }) {
                return .cypress
            }
            let hasString = members.contains { $0.value.string != nil }
            if !members.isEmpty, !hasString, let container = members.first(where: { $0.value.members != nil || $0.value.elements != nil }) {
                // localStorage only holds strings: an object of nested values is one saved value
                // (a game save, an app state), not a dump of the storage.
                throw .dump(.wrongShape(
                    file: source, position: position(container.keyOffset),
                    reason: "no value is a string and '\(container.key)' holds \(container.value.kindDescription), so this looks like one saved value rather than a dump of localStorage (pass --format object to import it anyway)"))
            }
            return .object
        default:
            throw .dump(.wrongShape(file: source, position: position(root.range.lowerBound), reason: "the top level is \(root.kindDescription), not an object or an array"))
        }
    }

    private static func looksLikeOrigin(_ key: String) -> Bool {
        key.contains("://") || key == "null" || key.hasPrefix("file:")
    }

    // MARK: Formats with origins

    private mutating func readPlaywright(_ root: JSONNode, origin: String?) throws(ImportError) -> Result {
        guard let origins = root["origins"]?.elements else {
            throw expected("a Playwright storageState object with an \"origins\" array", for: .playwright, found: root["origins"] ?? root)
        }
        var available: [(name: String, items: [JSONNode])] = []
        for node in origins {
            guard let name = node["origin"]?.string else {
                throw .dump(.wrongShape(file: source, position: position(node.range.lowerBound), reason: "an entry of \"origins\" has no \"origin\" string"))
            }
            let storage = node["localStorage"]
            guard storage == nil || storage?.elements != nil else {
                throw .dump(.wrongShape(file: source, position: position(node.range.lowerBound), reason: "\"localStorage\" of origin \(name) is \(storage?.kindDescription ?? "missing"), not an array"))
            }
            available.append((name, storage?.elements ?? []))
        }
        if let cookies = root["cookies"]?.elements, !cookies.isEmpty {
            warnings.append("the file's \(cookies.count) cookie(s) were not imported: cookies are not localStorage")
        }
        guard let chosen = try choose(origin, among: available.map { ($0.name, $0.items.count) }) else {
            warnings.append("the file holds no origin with localStorage: there is nothing to import")
            return Result(format: .playwright, origin: nil, entries: [])
        }
        let items = available[chosen].items
        var found: [(String, Int, JSONNode)] = []
        for item in items {
            guard let name = item["name"], let key = name.string, let value = item["value"] else {
                throw .dump(.wrongShape(file: source, position: position(item.range.lowerBound), reason: "a localStorage item of origin \(available[chosen].name) is not {\"name\": string, \"value\": string}"))
            }
            found.append((key, name.range.lowerBound, value))
        }
        return Result(format: .playwright, origin: available[chosen].name, entries: try collect(found))
    }

    private mutating func readCypress(_ root: JSONNode, origin: String?) throws(ImportError) -> Result {
        guard let members = root.members else {
            throw expected("an object of origin → {key: value}", for: .cypress, found: root)
        }
        for member in members where member.value.members == nil {
            throw .dump(.wrongShape(file: source, position: position(member.keyOffset), reason: "origin '\(member.key)' holds \(member.value.kindDescription), not an object of key → value"))
        }
        guard let chosen = try choose(origin, among: members.map { ($0.key, $0.value.members?.count ?? 0) }) else {
            return Result(format: .cypress, origin: nil, entries: [])
        }
        let storage = members[chosen].value.members ?? []
        return Result(format: .cypress, origin: members[chosen].key, entries: try collect(storage.map { ($0.key, $0.keyOffset, $0.value) }))
    }

    /// The index of the origin to read: the one asked for, else the only one with entries.
    private mutating func choose(_ wanted: String?, among origins: [(name: String, count: Int)]) throws(ImportError) -> Int? {
        let names = origins.map(\.name)
        if let wanted {
            let trimmed = Self.trimSlash(wanted)
            guard let index = names.firstIndex(where: { $0 == wanted || Self.trimSlash($0) == trimmed }) else {
                throw .dump(.originNotFound(file: source, origin: wanted, origins: names))
            }
            return index
        }
        let withEntries = origins.indices.filter { origins[$0].count > 0 }
        if withEntries.count > 1 { throw .dump(.originRequired(file: source, origins: withEntries.map { names[$0] })) }
        guard let only = withEntries.first ?? (origins.count == 1 ? 0 : nil) else { return nil }
        if origins.count > 1 {
            warnings.append("read origin \(names[only]), the only one with localStorage; the file also lists \(origins.count - 1) other origin(s) without any")
        }
        return only
    }

    private static func trimSlash(_ origin: String) -> String {
        origin.hasSuffix("/") ? String(origin.dropLast()) : origin
    }

    // MARK: Entries

    private func pairs(_ elements: [JSONNode]) throws(ImportError) -> [(String, Int, JSONNode)] {
        var result: [(String, Int, JSONNode)] = []
        result.reserveCapacity(elements.count)
        for (number, element) in elements.enumerated() {
            guard let pair = element.elements, pair.count == 2, let key = pair[0].string else {
                throw .dump(.wrongShape(
                    file: source, position: position(element.range.lowerBound),
                    reason: "element \(number + 1) is \(Self.describePair(element)), not a [key, value] pair with a string key"))
            }
            result.append((key, pair[0].range.lowerBound, pair[1]))
        }
        return result
    }

    private static func describePair(_ node: JSONNode) -> String {
        guard let elements = node.elements else { return node.kindDescription }
        if elements.count != 2 { return "an array of \(elements.count) element(s)" }
        return "a pair whose key is \(elements[0].kindDescription)"
    }

    /// Entries in order, the last of a repeated key winning (as `localStorage.setItem` would).
    private mutating func collect(_ found: [(key: String, offset: Int, value: JSONNode)]) throws(ImportError) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(found.count)
        var positions: [String: Int] = [:]
        var firstOffsets: [String: Int] = [:]
        var repeats: [String: [Int]] = [:]
        var repeatOrder: [String] = []
        var nonStrings: [(key: String, kind: String)] = []
        for (key, offset, node) in found {
            let entry = self.entry(key, node)
            if entry.originalKind != .string { nonStrings.append((key, node.kindDescription)) }
            if let existing = positions[key] {
                if repeats[key] == nil {
                    repeatOrder.append(key)
                    repeats[key] = [firstOffsets[key] ?? offset]
                }
                repeats[key]?.append(offset)
                entries[existing].value = entry.value
                entries[existing].originalKind = entry.originalKind
            } else {
                positions[key] = entries.count
                firstOffsets[key] = offset
                entries.append(entry)
            }
        }
        let reported = repeatOrder.prefix(20)
        let lineOf = lines(at: reported.flatMap { (repeats[$0] ?? []).prefix(5) })
        for key in reported {
            let offsets = repeats[key] ?? []
            var lines = offsets.prefix(5).map { "line \(lineOf[$0] ?? 1)" }
            if offsets.count > 5 { lines.append("…") }
            warnings.append("key '\(key)' appears \(offsets.count) times (\(lines.joined(separator: ", "))); the last value wins, as in the browser")
        }
        if repeatOrder.count > 20 {
            warnings.append("\(repeatOrder.count - 20) more keys appear more than once; the last value of each wins")
        }
        if !nonStrings.isEmpty {
            let listed = nonStrings.prefix(5).map { "'\($0.key)' (\($0.kind))" }.joined(separator: ", ")
            let more = nonStrings.count > 5 ? " and \(nonStrings.count - 5) more" : ""
            warnings.append("\(nonStrings.count) value(s) are not strings, so this file was not written by a browser: \(listed)\(more); each was taken as its JSON text")
        }
        return entries
    }

    private func entry(_ key: String, _ node: JSONNode) -> Entry {
        switch node.kind {
        case .string(let text): return Entry(key: key, value: text, originalKind: .string)
        case .number: return Entry(key: key, value: sourceText(node), originalKind: .number)
        case .bool: return Entry(key: key, value: sourceText(node), originalKind: .boolean)
        case .null: return Entry(key: key, value: "null", originalKind: .null)
        case .object: return Entry(key: key, value: sourceText(node), originalKind: .object)
        case .array: return Entry(key: key, value: sourceText(node), originalKind: .array)
        }
    }

    private func sourceText(_ node: JSONNode) -> String {
        String(decoding: bytes[node.range], as: UTF8.self)
    }

    /// The line of each of `offsets`, counted in one pass over the input (rather than one pass
    /// from the start for each, as a ``SourcePosition`` would take).
    private func lines(at offsets: [Int]) -> [Int: Int] {
        var lines: [Int: Int] = [:]
        var line = 1
        var index = 0
        for offset in Set(offsets).sorted() {
            let end = min(offset, bytes.count)
            while index < end {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            lines[offset] = line
        }
        return lines
    }

    // MARK: Errors

    private func position(_ offset: Int) -> SourcePosition {
        SourcePosition(offset: offset, in: bytes)
    }

    private func expected(_ shape: String, for format: Format, found node: JSONNode) -> ImportError {
        .dump(.wrongShape(file: source, position: position(node.range.lowerBound), reason: "format '\(format.rawValue)' expects \(shape), but found \(node.kindDescription)"))
    }
}
#endif
