import Foundation
import RizqJSON

extension PrefSchema {
    /// Reads a JSON Schema document: a generated one, or one written by hand (see the type's
    /// documentation for the keywords that count).
    /// - Throws: ``SuiteStoreError/invalidSchema(where:reason:)`` saying where it is wrong,
    ///   ``SuiteStoreError/schemaNotJSON(reason:line:column:)`` or
    ///   ``SuiteStoreError/schemaTooLarge(reason:)``.
    public init(json bytes: some ContiguousBytes) throws(SuiteStoreError) {
        let count = bytes.withUnsafeBytes { $0.count }
        guard count <= Self.maximumFileSize else {
            throw .schemaTooLarge(reason: "\(count) bytes, over the \(Self.maximumFileSize) a schema may have")
        }
        let document: PrefValue
        do {
            document = try JSONReader.parseSuiteDocument(bytes).value
        } catch {
            throw .schemaNotJSON(reason: error.reason, line: error.line, column: error.column)
        }
        guard case .dictionary(let members) = document else { throw .invalidSchema(where: "top level", reason: "is not an object") }
        title = try Self.text(members["title"], at: "title")
        description = try Self.text(members["description"], at: "description")
        var properties: [String: Property] = [:]
        if let declared = members["properties"] {
            guard case .dictionary(let keys) = declared else { throw .invalidSchema(where: "\"properties\"", reason: "is not an object") }
            guard keys.count <= Self.maximumProperties else {
                throw .schemaTooLarge(reason: "it describes \(keys.count) keys, over the \(Self.maximumProperties) a schema may describe")
            }
            for (key, member) in keys {
                properties[key] = try Property(json: member, at: "properties.\(key)")
            }
        }
        self.properties = properties
    }

    /// The document as JSON: draft 2020-12, keys sorted, indented by two spaces.
    public func jsonData() -> Data {
        var document: [String: PrefValue] = ["$schema": .string(Self.dialect), "type": .string("object")]
        if let title { document["title"] = .string(title) }
        if let description { document["description"] = .string(description) }
        document["properties"] = .dictionary(properties.mapValues(\.json))
        // Every value a schema holds came from JSON or from a stored value: always representable.
        return Data((try? JSONWriter.bytes(.dictionary(document), pretty: true)) ?? [])
    }

    /// A string member, or `nil` when absent.
    static func text(_ value: PrefValue?, at place: String) throws(SuiteStoreError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw .invalidSchema(where: "\"\(place)\"", reason: "is not a string") }
        return text
    }
}

extension PrefSchema.Property {
    /// A member of `properties`.
    init(json: PrefValue, at place: String) throws(SuiteStoreError) {
        // `true` (anything goes) and `false` (nothing does) are schemas too.
        if case .bool(let anything) = json {
            self.init(choices: anything ? nil : [])
            return
        }
        guard case .dictionary(let members) = json else { throw .invalidSchema(where: place, reason: "is not an object") }
        var types: [ValueType] = []
        switch members["type"] {
        case nil: break
        case .string(let name)?:
            types = [try Self.type(named: name, at: place)]
        case .array(let names)?:
            for name in names {
                guard case .string(let text) = name else { throw .invalidSchema(where: "\(place).type", reason: "lists something that is not a type name") }
                types.append(try Self.type(named: text, at: place))
            }
        default:
            throw .invalidSchema(where: "\(place).type", reason: "is neither a type name nor a list of them")
        }
        var choices: [PrefValue]?
        if let listed = members["enum"] {
            guard case .array(let values) = listed else { throw .invalidSchema(where: "\(place).enum", reason: "is not an array") }
            choices = values
        }
        if let constant = members["const"] { choices = (choices ?? [constant]).filter { Self.same($0, constant) } }
        var deprecated = false
        if let flag = members["deprecated"] {
            guard case .bool(let value) = flag else { throw .invalidSchema(where: "\(place).deprecated", reason: "is not true or false") }
            deprecated = value
        }
        self.init(
            types: types, title: try PrefSchema.text(members["title"], at: "\(place).title"),
            description: try PrefSchema.text(members["description"], at: "\(place).description"), defaultValue: members["default"],
            minimum: try Self.bound(members["minimum"], at: "\(place).minimum"), maximum: try Self.bound(members["maximum"], at: "\(place).maximum"),
            exclusiveMinimum: try Self.bound(members["exclusiveMinimum"], at: "\(place).exclusiveMinimum"),
            exclusiveMaximum: try Self.bound(members["exclusiveMaximum"], at: "\(place).exclusiveMaximum"), choices: choices,
            deprecated: deprecated, deprecationMessage: try PrefSchema.text(members["deprecationMessage"], at: "\(place).deprecationMessage"))
    }

    /// The member as JSON Schema: a date or data key as the tagged object the file holds.
    var json: PrefValue {
        var members: [String: PrefValue] = [:]
        if let tag {
            members["type"] = .string("object")
            members["properties"] = .dictionary([tag: .dictionary(["type": .string("string")])])
            members["required"] = .array([.string(tag)])
            members["additionalProperties"] = .bool(false)
        } else if types.count == 1 {
            members["type"] = .string(types[0].rawValue)
        } else if !types.isEmpty {
            members["type"] = .array(types.map { .string($0.rawValue) })
        }
        if let title { members["title"] = .string(title) }
        if let description { members["description"] = .string(description) }
        if let defaultValue { members["default"] = defaultValue }
        if let minimum { members["minimum"] = minimum }
        if let maximum { members["maximum"] = maximum }
        if let exclusiveMinimum { members["exclusiveMinimum"] = exclusiveMinimum }
        if let exclusiveMaximum { members["exclusiveMaximum"] = exclusiveMaximum }
        if let choices { members["enum"] = .array(choices) }
        if deprecated { members["deprecated"] = .bool(true) }
        if let deprecationMessage { members["deprecationMessage"] = .string(deprecationMessage) }
        return .dictionary(members)
    }

    private static func type(named name: String, at place: String) throws(SuiteStoreError) -> ValueType {
        guard let type = ValueType(rawValue: name) else {
            throw .invalidSchema(where: "\(place).type", reason: "names '\(PrintableText.of(name))', which is not a JSON type (\(ValueType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return type
    }

    private static func bound(_ value: PrefValue?, at place: String) throws(SuiteStoreError) -> PrefValue? {
        guard let value else { return nil }
        guard number(value) != nil else { throw .invalidSchema(where: place, reason: "is not a number") }
        return value
    }
}
