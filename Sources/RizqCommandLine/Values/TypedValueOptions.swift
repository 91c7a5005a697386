#if CLI
import ArgumentParser
import RizqPrefs

/// A value given as text and the type it is stored as — `VALUE` with `--type T` or one of the
/// type flags (`--int`, `--bool`, …) — declared once for `rizq-prefs set` and
/// `rizq-prefs fleet set`.
package struct TypedValueOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The value, as text; its type is given by --type or a type flag (default: string).", valueName: "value"),
              transform: NegativeNumbers.unmarked)
    package var value: String

    @Option(name: .customLong("type"), help: ArgumentHelp("The value's type: bool, int, double, string, date, data or json.", valueName: "type"),
            completion: .list(PrefValueType.allCases.map(\.rawValue)), transform: TypedValueOptions.parseType)
    package var typeOption: PrefValueType?

    @Flag(exclusivity: .exclusive)
    package var typeFlag: ValueTypeFlag?

    /// Nothing parsed yet (argument-parser fills the properties in).
    package init() {}

    /// A type's name; an unknown one is refused with the list and the nearest name.
    package static func parseType(_ text: String) throws -> PrefValueType {
        if let type = PrefValueType(rawValue: text) { return type }
        let names = PrefValueType.allCases.map(\.rawValue)
        let guess = Suggestion.nearest(text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw ValidationError("the types are \(names.joined(separator: ", "))\(guess)")
    }

    /// `--type int --bool`: refused, naming both.
    package func validate() throws {
        if let typeOption, let typeFlag, typeOption != typeFlag.type {
            throw ValidationError("--type \(typeOption.rawValue) and --\(typeFlag.rawValue) disagree; give one type")
        }
    }

    /// The type given (default: string).
    package var type: PrefValueType { typeOption ?? typeFlag?.type ?? .string }

    /// The value parsed as its type.
    /// - Throws: a usage error (exit 2) saying why the text is not of the type, and to choose another.
    package func parsed() throws(CLIError) -> PrefValue {
        try Self.parse(value, as: type)
    }

    /// `text` parsed as `type`.
    /// - Throws: a usage error (exit 2) saying why the text is not of the type, and to choose another.
    package static func parse(_ text: String, as type: PrefValueType) throws(CLIError) -> PrefValue {
        do {
            return try type.parse(text)
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
