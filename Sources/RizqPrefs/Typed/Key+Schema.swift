extension PrefSchema {
    /// The schema of `keys`, from their declarations (``Key/schema``). A key named twice keeps
    /// its last description.
    public init(title: String? = nil, description: String? = nil, keys: [any AnyPrefKey]) {
        var properties: [String: Property] = [:]
        for key in keys { properties[key.name] = key.schema }
        self.init(title: title, description: description, properties: properties)
    }
}

/// What a ``Key`` declaration says of the key beyond its name and default: the parts of its
/// ``Key/schema``, before they are encoded.
struct KeyAbout<Value: Sendable> {
    var title: String?
    var description: String?
    var deprecated: String?
    var minimum: Value?
    var maximum: Value?
    var choices: [Value]?

    init(title: String? = nil, description: String? = nil, deprecated: String? = nil, minimum: Value? = nil, maximum: Value? = nil, choices: [Value]? = nil) {
        self.title = title
        self.description = description
        self.deprecated = deprecated
        self.minimum = minimum
        self.maximum = maximum
        self.choices = choices
    }

    /// The schema member of a key with this description and `defaultValue`, its values encoded
    /// as the key stores them. An enum that is `CaseIterable` offers its cases as the choices.
    func property(default defaultValue: Value, codec: PrefCodec<Value>) -> PrefSchema.Property {
        let encode = { (value: Value) -> PrefValue? in (try? codec.encode(value)) ?? nil }
        let stored = encode(defaultValue).flatMap { $0.isRepresentableInJSON ? $0 : nil }
        var choiceValues = choices.map { $0.compactMap(encode) }
        if choiceValues == nil, let cases = Value.self as? any CaseIterable.Type {
            choiceValues = Self.allCases(of: cases).compactMap { ($0 as? Value).flatMap(encode) }
        }
        var property = PrefSchema.Property(
            title: title, description: description, defaultValue: stored, minimum: minimum.flatMap(encode), maximum: maximum.flatMap(encode),
            choices: choiceValues, deprecationMessage: deprecated)
        if let sample = stored ?? choiceValues?.first {
            switch sample {
            case .date: property.tag = TaggedValue.dateTag
            case .data: property.tag = TaggedValue.dataTag
            default: property.types = PrefSchema.Property.ValueType.of(sample).map { [$0] } ?? []
            }
        }
        return property
    }

    private static func allCases<Cases: CaseIterable>(of type: Cases.Type) -> [Any] {
        Array(type.allCases)
    }
}

extension PrefSchema.Property {
    /// Whether a value could be outside what it takes beyond its type (a range or choices): what
    /// a ``Key`` checks on write and on read (a wrong type already reads as the default).
    var limitsValues: Bool {
        minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || choices != nil
    }
}

extension PrefSchema.Property.ValueType {
    /// The JSON type of `value` as the file holds it (`nil` for a date, data or non-finite
    /// double, whose tagged objects the generated schema spells out).
    static func of(_ value: PrefValue) -> Self? {
        switch value {
        case .bool: return .boolean
        case .int, .unsigned: return .integer
        case .double(let number): return number.isFinite ? .number : nil
        case .string: return .string
        case .array: return .array
        case .dictionary: return .object
        case .null: return .null
        case .date, .data: return nil
        }
    }
}
