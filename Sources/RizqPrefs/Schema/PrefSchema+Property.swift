import Foundation

extension PrefSchema {
    /// What one key is: a member of the schema's `properties`.
    ///
    /// Its checks follow JSON Schema on the value's JSON form, as an independent validator reads
    /// the suite file: a date (`{"$date": …}`) and data (`{"$data": …}`) are objects, `1.0` is an
    /// integer, `minimum` and `maximum` apply to numbers only.
    public struct Property: Sendable, Equatable {
        /// A JSON type (`type`).
        public enum ValueType: String, Sendable, Equatable, CaseIterable {
            /// `true` or `false`.
            case boolean
            /// A whole number (`1.0` included, as JSON Schema has it).
            case integer
            /// Any number.
            case number
            /// Text.
            case string
            /// A JSON array.
            case array
            /// A JSON object: also a date and data, in their tagged forms.
            case object
            /// JSON `null`.
            case null
        }

        /// The types a value may have (`type`); empty: any.
        public var types: [ValueType]
        /// A short title (`title`: GSettings' summary).
        public var title: String?
        /// What the key does (`description`).
        public var description: String?
        /// The app's shipped default (`default`): the ``ValueSource/Layer/schema`` layer.
        public var defaultValue: PrefValue?
        /// The smallest number allowed (`minimum`).
        public var minimum: PrefValue?
        /// The largest number allowed (`maximum`).
        public var maximum: PrefValue?
        /// A number the value must be above (`exclusiveMinimum`).
        public var exclusiveMinimum: PrefValue?
        /// A number the value must be below (`exclusiveMaximum`).
        public var exclusiveMaximum: PrefValue?
        /// The only values allowed (`enum`; `const` is one choice); `nil`: any.
        public var choices: [PrefValue]?
        /// Whether the key is deprecated (`deprecated`).
        public var deprecated: Bool
        /// What to use instead (`deprecationMessage`, as VS Code's settings schemas say it).
        public var deprecationMessage: String?
        /// The tag of a date or data key (`$date`, `$data`): the generated schema describes the
        /// tagged object the file holds.
        var tag: String?

        /// A description with the given parts (all optional).
        public init(
            types: [ValueType] = [], title: String? = nil, description: String? = nil, defaultValue: PrefValue? = nil,
            minimum: PrefValue? = nil, maximum: PrefValue? = nil, exclusiveMinimum: PrefValue? = nil, exclusiveMaximum: PrefValue? = nil,
            choices: [PrefValue]? = nil, deprecated: Bool = false, deprecationMessage: String? = nil
        ) {
            self.types = types
            self.title = title
            self.description = description
            self.defaultValue = defaultValue
            self.minimum = minimum
            self.maximum = maximum
            self.exclusiveMinimum = exclusiveMinimum
            self.exclusiveMaximum = exclusiveMaximum
            self.choices = choices
            self.deprecated = deprecated || deprecationMessage != nil
            self.deprecationMessage = deprecationMessage
        }

        /// Whether it checks anything a value could fail (a type, a range, choices).
        public var constrainsValues: Bool {
            !types.isEmpty || minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || choices != nil
        }

        // MARK: Checking a value

        /// Why `value` is not allowed, in words that say what is ("5000 is not allowed: the key
        /// takes an integer from 0 to 100"); `nil` when it is.
        public func problem(with value: PrefValue) -> String? {
            accepts(value) ? nil : "\(Self.words(value)) is not allowed: the key takes \(allowed)"
        }

        /// Whether `value` passes every check.
        public func accepts(_ value: PrefValue) -> Bool {
            if !types.isEmpty, !types.contains(where: { Self.value(value, is: $0) }) { return false }
            if let choices, !choices.contains(where: { Self.same(value, $0) }) { return false }
            guard let number = Self.number(value) else { return true }
            if let minimum, let bound = Self.number(minimum), number < bound { return false }
            if let maximum, let bound = Self.number(maximum), number > bound { return false }
            if let exclusiveMinimum, let bound = Self.number(exclusiveMinimum), number <= bound { return false }
            if let exclusiveMaximum, let bound = Self.number(exclusiveMaximum), number >= bound { return false }
            return true
        }

        /// What the key takes, in words: "an integer from 0 to 100", "one of \"light\", \"dark\"",
        /// "a string", "any value".
        public var allowed: String {
            if let choices {
                return choices.count == 1 ? "only \(Self.words(choices[0]))" : "one of " + choices.map(Self.words).joined(separator: ", ")
            }
            var kind = types.isEmpty ? "any value" : types.map(\.article).joined(separator: " or ")
            let low = minimum.map { "from \(Self.words($0))" } ?? exclusiveMinimum.map { "above \(Self.words($0))" }
            let high = maximum.map { "to \(Self.words($0))" } ?? exclusiveMaximum.map { "below \(Self.words($0))" }
            if low != nil || high != nil {
                if types.isEmpty { kind = "a number" }
                kind += " " + [low, high].compactMap { $0 }.joined(separator: " ")
            }
            return kind
        }

        /// Whether `value`'s JSON form has the JSON type `type`.
        static func value(_ value: PrefValue, is type: ValueType) -> Bool {
            switch (value, type) {
            case (.bool, .boolean), (.string, .string), (.array, .array), (.null, .null): return true
            case (.int, .integer), (.unsigned, .integer), (.int, .number), (.unsigned, .number): return true
            case (.double(let number), .number): return number.isFinite
            case (.double(let number), .integer): return number.isFinite && number.rounded(.towardZero) == number
            case (.dictionary, .object), (.date, .object), (.data, .object): return true
            case (.double(let number), .object): return !number.isFinite  // {"$double": "inf"}
            default: return false
            }
        }

        /// Equal as JSON Schema compares (numbers by value: `1` and `1.0` are one choice).
        static func same(_ lhs: PrefValue, _ rhs: PrefValue) -> Bool {
            if let left = number(lhs), let right = number(rhs) { return left == right }
            return lhs == rhs
        }

        /// A finite number's value, exact for integers (compared as such when both are).
        static func number(_ value: PrefValue) -> SchemaNumber? {
            switch value {
            case .int(let number): return .int(number)
            case .unsigned(let number): return .unsigned(number)
            case .double(let number) where number.isFinite: return .double(number)
            default: return nil
            }
        }

        /// A value in a message: JSON text, cut short.
        static func words(_ value: PrefValue) -> String {
            let text = value.description
            return text.count > 80 ? String(text.prefix(77)) + "…" : text
        }
    }
}

extension PrefSchema.Property.ValueType {
    /// "an integer", "a string".
    var article: String {
        switch self {
        case .integer, .array, .object: return "an \(rawValue)"
        default: return "a \(rawValue)"
        }
    }
}

/// A number a schema compares: integers exactly, anything else as a `Double`.
enum SchemaNumber: Comparable {
    case int(Int)
    case unsigned(UInt64)
    case double(Double)

    static func < (lhs: SchemaNumber, rhs: SchemaNumber) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b
        case (.unsigned(let a), .unsigned(let b)): return a < b
        case (.int(let a), .unsigned(let b)): return a < 0 || UInt64(a) < b
        case (.unsigned(let a), .int(let b)): return b >= 0 && a < UInt64(b)
        default: return lhs.double < rhs.double
        }
    }

    static func == (lhs: SchemaNumber, rhs: SchemaNumber) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a == b
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.int(let a), .unsigned(let b)), (.unsigned(let b), .int(let a)): return a >= 0 && UInt64(a) == b
        default: return lhs.double == rhs.double
        }
    }

    private var double: Double {
        switch self {
        case .int(let number): return Double(number)
        case .unsigned(let number): return Double(number)
        case .double(let number): return number
        }
    }
}
