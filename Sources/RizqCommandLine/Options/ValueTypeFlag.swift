#if CLI
import ArgumentParser
import RizqPrefs

/// The type flags of `set`: `--bool`, `--int`, … as a shorter spelling of `--type`.
package enum ValueTypeFlag: String, EnumerableFlag {
    case bool, int, double, string, date, data, json

    package var type: PrefValueType { PrefValueType(rawValue: rawValue) ?? .string }

    package static func help(for value: ValueTypeFlag) -> ArgumentHelp? {
        "Same as --type \(value.rawValue)."
    }
}

extension PrefValueType: ExpressibleByArgument {}
#endif
