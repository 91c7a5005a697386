#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs range KEY`
struct RangeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "Print the values a key takes, from the suite's installed schema.",
        discussion: """
            As 'gsettings range' does: 'range TYPE MIN MAX' for a number with bounds (a bound \
            that is not set prints as -), 'enum' and then each choice as JSON on a line of its \
            own, or 'type TYPE' for a key that takes any value of its type ('type any' for one \
            that takes anything). The schema is <dir>/rizq-prefs/schemas/apps/<app id>/<suite>.schema.json \
            under $XDG_DATA_HOME or a <dir> of $XDG_DATA_DIRS (groups: schemas/groups/group.NAME.schema.json). \
            Exits 1 when no installed schema describes the key.

            Example:
              rizq-prefs range --app com.rizq.app theme_mode
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let suite = try store.openStore()
        let property = try KeyDescription.property(of: key, in: suite)
        for line in KeyDescription.rangeLines(property) { Output.line(line) }
    }
}
#endif
