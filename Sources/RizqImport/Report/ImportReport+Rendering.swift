#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

extension ImportReport {
    /// The report for people: a status line, one block per key (what, where, which rule, the
    /// value in short), the warnings and the counts. Secret values are never shown.
    public var text: String {
        var lines: [String] = []
        lines.append("Import '\(importID)': \(statusSentence)")
        var input = "Input: \(source ?? "(built in code)") (\(format.rawValue)"
        if let origin { input += ", origin \(origin)" }
        input += ", \(digest.prefix(23))…)"
        lines.append(input)
        if !items.isEmpty { lines.append("") }
        let width = Action.allCases.map(\.rawValue.count).max() ?? 8
        for item in items {
            let label = item.action.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            var head = "  \(label)  \(item.sourceKey)"
            switch item.destination {
            case .suite(let name, let key)?:
                head += " → \(name) / \(key)" + (item.type.map { " (\($0))" } ?? "")
            case .secret(let service, let account)?:
                head += " → secret store, service \(service), account \(account) (value not shown)"
            case nil:
                break
            }
            lines.append(head)
            let indent = String(repeating: " ", count: width + 4)
            lines.append(indent + "rule: " + item.rule)
            if let note = item.note { lines.append(indent + note) }
            if let value = item.value { lines.append(indent + "value: " + Self.preview(value)) }
        }
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Warnings:")
            for warning in warnings { lines.append("  - " + warning) }
        }
        lines.append("")
        if status != .alreadyImported {
            lines.append(Action.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ") + ".")
            for (suite, path) in suiteFiles.sorted(by: { $0.key < $1.key }) {
                lines.append("Suite \(suite): \(path)")
            }
        }
        lines.append("Record: \(recordFile)")
        return lines.joined(separator: "\n") + "\n"
    }

    private var statusSentence: String {
        switch status {
        case .dryRun:
            return "dry run, nothing was written. These are the writes an import would make."
        case .imported:
            return "imported."
        case .alreadyImported:
            var sentence = "already imported"
            if let date = previousImport?.importedAt { sentence += " on " + Self.timestamp(date) }
            if let earlier = previousImport?.digest, earlier != digest {
                sentence += ", from a different input (\(earlier.prefix(23))…)"
            }
            return sentence + "; nothing was changed. Force a new run (--force) to import again."
        }
    }

    /// The report for scripts: one JSON object with a stable shape (every field present, `null`
    /// when it does not apply), keys sorted. Secret items carry `"redacted": true` and no value.
    /// The import's id is the member `"import"` (it was `"migration"`: CHANGELOG.md).
    ///
    /// ```json
    /// {"counts": {"imported": 1, …}, "digest": "sha256:…", "format": "object",
    ///  "items": [{"account": null, "action": "imported", "key": "theme_mode", "note": null,
    ///             "redacted": false, "rule": "…", "service": null, "suite": "com.rizq.app",
    ///             "suiteKey": "theme_mode", "type": "string", "value": "dark"}],
    ///  "import": "rizq-web-2026", "origin": null, "previousImport": null,
    ///  "recordFile": "…", "source": "dump.json", "status": "imported", "suiteFiles": {…}, "warnings": []}
    /// ```
    public var json: String {
        var counts: [String: PrefValue] = [:]
        for action in Action.allCases { counts[action.rawValue] = .int(count(action)) }
        let previous: PrefValue = previousImport.map { previous in
            .dictionary([
                "importedAt": previous.importedAt.map { .string(Self.timestamp($0)) } ?? .null,
                "digest": previous.digest.map(PrefValue.string) ?? .null,
                "runs": .int(previous.runs),
            ])
        } ?? .null
        let object: PrefValue = .dictionary([
            "import": .string(importID),
            "status": .string(status.rawValue),
            "source": source.map(PrefValue.string) ?? .null,
            "format": .string(format.rawValue),
            "origin": origin.map(PrefValue.string) ?? .null,
            "digest": .string(digest),
            "counts": .dictionary(counts),
            "items": .array(items.map(Self.json)),
            "warnings": .array(warnings.map(PrefValue.string)),
            "previousImport": previous,
            "suiteFiles": .dictionary(suiteFiles.mapValues(PrefValue.string)),
            "recordFile": .string(recordFile),
        ])
        // Values come from suites, which hold only finite numbers: the writer cannot fail here.
        return (try? JSONWriter.string(object, pretty: true)) ?? "{}"
    }

    private static func json(_ item: Item) -> PrefValue {
        var suite: PrefValue = .null, suiteKey: PrefValue = .null, service: PrefValue = .null, account: PrefValue = .null
        switch item.destination {
        case .suite(let name, let key)?: (suite, suiteKey) = (.string(name), .string(key))
        case .secret(let name, let key)?: (service, account) = (.string(name), .string(key))
        case nil: break
        }
        return .dictionary([
            "key": .string(item.sourceKey),
            "action": .string(item.action.rawValue),
            "suite": suite,
            "suiteKey": suiteKey,
            "service": service,
            "account": account,
            "type": item.type.map(PrefValue.string) ?? .null,
            "value": item.value ?? .null,
            "redacted": .bool(service != .null),
            "rule": .string(item.rule),
            "note": item.note.map(PrefValue.string) ?? .null,
        ])
    }

    /// A value's compact JSON, cut to about 100 characters.
    static func preview(_ value: PrefValue) -> String {
        let text = (try? JSONWriter.string(value)) ?? value.description
        let scalars = text.unicodeScalars
        guard scalars.count > 100 else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(100))) + "… (\(text.utf8.count) bytes in all)"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
#endif
