#if CLI
import RizqCommandLine
import RizqPrefs

/// What `describe` and `range` say of a key, from the suite's installed schema and its layers.
enum KeyDescription {
    /// The schema's member for `key`.
    /// - Throws: not found (exit 1) when no installed schema describes it.
    static func property(of key: String, in suite: SuiteStore) throws(CLIError) -> PrefSchema.Property {
        guard let schema = suite.installedSchema else {
            throw CLIError(.notFound, "suite \(suite.suiteName) has no installed schema: an app's package installs it as \(PrefSchema.installPath(suite: suite.suiteName, appID: suite.appID, dataDirectory: "/usr/share")) (or under $XDG_DATA_HOME); 'rizq-prefs doctor' says where it looked")
        }
        guard let property = schema.properties[key] else {
            throw CLIError(.notFound, "the schema of suite \(suite.suiteName) (\(suite.installedSchemaPath ?? "")) does not describe key '\(key)'; it describes \(schema.properties.count) keys: 'rizq-prefs list' shows them")
        }
        return property
    }

    /// `range`'s lines, as `gsettings range` prints them.
    static func rangeLines(_ property: PrefSchema.Property) -> [String] {
        if let choices = property.choices { return ["enum"] + choices.map(\.json) }
        let type = typeName(property)
        let low = property.minimum ?? property.exclusiveMinimum
        let high = property.maximum ?? property.exclusiveMaximum
        if low != nil || high != nil {
            return ["range \(type) \(low?.json ?? "-") \(high?.json ?? "-")"]
        }
        return ["type \(type)"]
    }

    /// The key's type as the schema names it: `integer`, `string or null`, `any`.
    static func typeName(_ property: PrefSchema.Property) -> String {
        if property.types.isEmpty {
            if let value = property.defaultValue ?? property.choices?.first { return value.kindName }
            return property.minimum != nil || property.maximum != nil ? "number" : "any"
        }
        return property.types.map(\.rawValue).joined(separator: " or ")
    }

    /// `describe`'s fields, in order: name and value (`nil`: not known).
    static func fields(key: String, property: PrefSchema.Property?, suite: SuiteStore) -> [(name: String, value: PrefValue?)] {
        var fields: [(name: String, value: PrefValue?)] = [("key", .string(key))]
        if let property {
            fields.append(("title", property.title.map(PrefValue.string)))
            fields.append(("description", property.description.map(PrefValue.string)))
            fields.append(("type", .string(typeName(property))))
            fields.append(("default", property.defaultValue))
            if property.choices != nil || property.minimum != nil || property.maximum != nil || property.exclusiveMinimum != nil || property.exclusiveMaximum != nil {
                fields.append(("allowed", .string(property.allowed)))
            }
            if property.deprecated {
                fields.append(("deprecated", .string(property.deprecationMessage ?? "yes")))
            }
        }
        fields.append(("writable", .bool(!suite.objectIsForced(forKey: key))))
        fields.append(("value", suite.prefValue(forKey: key)))
        let source = suite.source(forKey: key)
        fields.append(("layer", source.map { .string($0.layer.rawValue) }))
        fields.append(("file", source?.path.map(PrefValue.string)))
        fields.append(("schema", suite.installedSchemaPath.map(PrefValue.string)))
        return fields
    }

    /// A field's value as text: a string as it is, anything else as JSON, `-` when unknown.
    static func words(_ value: PrefValue?) -> String {
        guard let value else { return "-" }
        return value.plain
    }
}
#endif
