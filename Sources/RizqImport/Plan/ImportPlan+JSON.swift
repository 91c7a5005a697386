#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// The plan's JSON file format (see ``ImportPlan``). Unknown fields are refused, so that a
/// misspelt `"tpye"` is an error rather than a silently inferred type.
extension ImportPlan: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, defaultSuite, secretService, unmapped, rules, undecodable
    }

    /// Reads and validates the plan file at `path`.
    /// - Throws: ``ImportError/plan(_:)`` naming the file and where in it the problem is.
    public init(contentsOfFile path: String) throws(ImportError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied, or it is a folder" : "no such file"
            throw .plan(.unreadable(file: path, reason: reason))
        }
        try self.init(json: data, file: path)
    }

    /// Reads and validates a plan from its JSON text; `file` names it in messages.
    public init(json data: Data, file: String? = nil) throws(ImportError) {
        let bytes = [UInt8](data)
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw .plan(.notJSON(file: file, position: SourcePosition(offset: bad, in: bytes), reason: "not UTF-8 text"))
        }
        do {
            _ = try JSONNode.parseWebJSONDocument(bytes)
        } catch {
            throw .plan(.notJSON(file: file, position: SourcePosition(offset: error.offset, in: bytes), reason: error.fileReason))
        }
        do {
            self = try JSONDecoder().decode(ImportPlan.self, from: data)
        } catch let error as DecodingError {
            throw .plan(ImportError.PlanProblem(decoding: error, file: file))
        } catch {
            throw .plan(.invalid(file: file, path: "", reason: "\(error)"))
        }
        try validate(file: file)
    }

    /// The plan as a JSON file's text (keys sorted, indented).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Decodes the JSON form.
    public init(from decoder: Decoder) throws {
        try PlanField.rejectUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        defaultSuite = try container.decodeIfPresent(String.self, forKey: .defaultSuite)
        secretService = try container.decodeIfPresent(String.self, forKey: .secretService)
        unmapped = try container.decodeIfPresent(UnmappedKeys.self, forKey: .unmapped) ?? .infer
        rules = try container.decodeIfPresent([Rule].self, forKey: .rules) ?? []
        undecodable = try container.decodeIfPresent(UndecodableAction.self, forKey: .undecodable) ?? .skip
    }

    /// Encodes the JSON form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(defaultSuite, forKey: .defaultSuite)
        try container.encodeIfPresent(secretService, forKey: .secretService)
        try container.encode(unmapped, forKey: .unmapped)
        try container.encode(rules, forKey: .rules)
        if undecodable != .skip { try container.encode(undecodable, forKey: .undecodable) }
    }
}

extension ImportPlan.Rule: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case key, pattern, to, undecodable
    }

    /// `{"key": K, "to": …}` or `{"pattern": P, "to": …}`, with an optional
    /// `"undecodable": "skip" | "replace" | "data"`.
    public init(from decoder: Decoder) throws {
        try PlanField.rejectUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let key = try container.decodeIfPresent(String.self, forKey: .key)
        let pattern = try container.decodeIfPresent(String.self, forKey: .pattern)
        switch (key, pattern) {
        case (let key?, nil):
            guard !key.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .key, in: container, debugDescription: "the key is empty")
            }
            source = .key(key)
        case (nil, let pattern?):
            source = .pattern(pattern)
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a rule needs exactly one of \"key\" (one key) or \"pattern\" (a glob such as \"sb-*-auth-token\")"))
        }
        target = try container.decodeIfPresent(ImportPlan.Target.self, forKey: .to) ?? .suite()
        undecodable = try container.decodeIfPresent(ImportPlan.UndecodableAction.self, forKey: .undecodable)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch source {
        case .key(let key): try container.encode(key, forKey: .key)
        case .pattern(let pattern): try container.encode(pattern, forKey: .pattern)
        }
        try container.encode(target, forKey: .to)
        try container.encodeIfPresent(undecodable, forKey: .undecodable)
    }
}

extension ImportPlan.Target: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case suite, key, type, secret, skip
    }

    private enum SecretKeys: String, CodingKey, CaseIterable {
        case service, account
    }

    /// `"skip"`, `"secret"`, `{"skip": reason-or-true}`, `{"secret": {"service", "account"}}`, or
    /// `{"suite", "key", "type"}` (each optional).
    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let word = try? single.decode(String.self) {
            switch word {
            case "skip": self = .skip(); return
            case "secret": self = .secret(); return
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(word)' is not a target; write \"skip\", \"secret\", or an object such as {\"suite\": …, \"type\": \"json\"}"))
            }
        }
        try PlanField.rejectUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let present = Set(container.allKeys.map(\.stringValue))
        if present.contains("skip") {
            guard present.count == 1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"skip\" cannot be combined with other fields"))
            }
            if let reason = try? container.decode(String.self, forKey: .skip) {
                self = .skip(reason: reason)
            } else if try container.decode(Bool.self, forKey: .skip) {
                self = .skip()
            } else {
                throw DecodingError.dataCorruptedError(forKey: .skip, in: container, debugDescription: "write \"skip\": true, or a reason")
            }
            return
        }
        if present.contains("secret") {
            guard present.count == 1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"secret\" cannot be combined with suite, key or type"))
            }
            let secretDecoder = try container.superDecoder(forKey: .secret)
            try PlanField.rejectUnknown(in: secretDecoder, allowed: SecretKeys.allCases.map(\.rawValue))
            let secret = try secretDecoder.container(keyedBy: SecretKeys.self)
            self = .secret(
                service: try secret.decodeIfPresent(String.self, forKey: .service),
                account: try secret.decodeIfPresent(String.self, forKey: .account))
            return
        }
        let typeName = try container.decodeIfPresent(String.self, forKey: .type)
        var type: ImportValueType?
        if let typeName {
            guard let known = ImportValueType(rawValue: typeName) else {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown type '\(typeName)'; use one of \(ImportValueType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            type = known
        }
        self = .suite(
            try container.decodeIfPresent(String.self, forKey: .suite),
            key: try container.decodeIfPresent(String.self, forKey: .key),
            type: type)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .suite(let suite, let key, let type):
            try container.encodeIfPresent(suite, forKey: .suite)
            try container.encodeIfPresent(key, forKey: .key)
            try container.encodeIfPresent(type, forKey: .type)
        case .secret(let service, let account):
            var secret = container.nestedContainer(keyedBy: SecretKeys.self, forKey: .secret)
            try secret.encodeIfPresent(service, forKey: .service)
            try secret.encodeIfPresent(account, forKey: .account)
        case .skip(let reason):
            if let reason { try container.encode(reason, forKey: .skip) } else { try container.encode(true, forKey: .skip) }
        }
    }
}

/// Refuses fields a plan object does not know.
private struct PlanField: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static func rejectUnknown(in decoder: Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: PlanField.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown field '\(key.stringValue)'; the fields here are \(allowed.joined(separator: ", "))"))
        }
    }
}
#endif
