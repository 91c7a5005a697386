#if Secrets
/// An INI file as Mozilla's `nsINIParser` reads `profiles.ini` and `installs.ini`: `[Section]`
/// headers and `key=value` lines; lines starting with `;` or `#` are comments; white space
/// around names and values is dropped; a later value of a key replaces an earlier one.
struct INIFile: Equatable {
    /// The sections in file order, each with its keys and values.
    private(set) var sections: [(name: String, values: [String: String])] = []

    /// Parses `text`.
    init(_ text: String) {
        var current: Int?
        // `\r\n` is one Character in Swift: split on every kind of line end.
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else {
                    current = nil
                    continue
                }
                let name = String(line[line.index(after: line.startIndex)..<close])
                if let existing = sections.firstIndex(where: { $0.name == name }) {
                    current = existing
                } else {
                    sections.append((name, [:]))
                    current = sections.count - 1
                }
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current].values[key] = value
        }
    }

    /// The value of `key` in `section`.
    subscript(section section: String, key key: String) -> String? {
        sections.first { $0.name == section }?.values[key]
    }

    /// The names of the sections, in file order.
    var sectionNames: [String] { sections.map(\.name) }

    static func == (left: INIFile, right: INIFile) -> Bool {
        left.sections.map(\.name) == right.sections.map(\.name) && left.sections.map(\.values) == right.sections.map(\.values)
    }
}
#endif
