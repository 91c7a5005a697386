#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs set KEY VALUE`
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a value under a key.",
        discussion: """
            The value is a string unless a type is given, with --type or one of the flags:
              bool    true, false, yes, no, 1 or 0
              int     a whole number in the 64-bit range: 42, -7
              double  a finite decimal number: 0.5, 1e-3
              string  any text (the default)
              date    ISO 8601 (2026-11-22T13:47:00.123Z, 2026-11-22) or @SECONDS since 1970
              data    base64: AAEC/w==
              json    any JSON value but null: '{"dailyGoal": 3}', '[3, 7]'
            A value that does not parse as its type is an error (exit 2) and nothing is written. \
            The change is on disk (fsynced) when the command returns. Secrets do not belong here: \
            use 'rizq-prefs secret set'.

            When the suite has an installed schema (see 'rizq-prefs describe'), a value with no \
            type given takes the type the schema declares for the key (integer, number, boolean), \
            and a value outside the key's range or choices is refused (exit 2, saying what the \
            key takes). A key an administrator locked (see 'rizq-prefs writable') is refused with \
            exit 8, naming the file that locks it. Nothing is written in either case.

            Examples:
              rizq-prefs set --app com.rizq.app current_streak 12 --int
              rizq-prefs set --suite group.com.rizq.app theme_mode dark
              rizq-prefs set --app com.rizq.app user_preferences '{"dailyGoal": 3}' --json
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key (any text).", transform: NegativeNumbers.unmarked)
    var key: String

    @OptionGroup var typed: TypedValueOptions

    /// What a `set` line asks for.
    struct Request {
        /// The suite (`--suite`, `--app`).
        var store: SuiteChoice
        /// The key.
        var key: String
        /// The value as typed.
        var value: String
        /// Its type (`--type` or a type flag; string when neither).
        var type: PrefValueType
        /// Whether the type was given (else the suite's schema may name it).
        var typeGiven = true
    }

    var request: Request {
        Request(store: store.choice, key: key, value: typed.value, type: typed.type, typeGiven: typed.typeOption != nil || typed.typeFlag != nil)
    }

    func run() throws {
        try Self.run(request)
    }

    static func run(_ request: Request) throws {
        let suite = try request.store.openStore()
        var type = request.type
        if !request.typeGiven, let declared = suite.installedSchema?.properties[request.key].flatMap(Self.type(declaredBy:)) { type = declared }
        let parsed = try TypedValueOptions.parse(request.value, as: type)
        do {
            try suite.put(parsed, forKey: request.key)
        } catch {
            throw CLIError(error)
        }
        try suite.flushOrFail()
    }

    /// The type a schema's member names, when it names one that text parses as.
    static func type(declaredBy property: PrefSchema.Property) -> PrefValueType? {
        guard property.types.count == 1 else { return nil }
        switch property.types[0] {
        case .integer: return .int
        case .number: return .double
        case .boolean: return .bool
        case .array, .object: return .json
        case .string, .null: return nil
        }
    }
}

extension SetCommand: PlainLineCommand {
    static let plainOptions = StoreOptions.plainOptions.union(["type"])
    static let plainFlags = Set(ValueTypeFlag.allCases.map(\.rawValue))

    static func request(plain words: PlainWords) -> Request? {
        guard words.arguments.count == 2 else { return nil }
        // An unknown type, two type flags, or --type and a flag that disagree: argument-parser
        // refuses them with its own messages.
        var type: PrefValueType?
        if let name = words.values["type"] {
            guard let named = PrefValueType(rawValue: name) else { return nil }
            type = named
        }
        let flags = ValueTypeFlag.allCases.filter { words.flags.contains($0.rawValue) }
        guard flags.count <= 1 else { return nil }
        if let flag = flags.first {
            guard type == nil || type == flag.type else { return nil }
            type = flag.type
        }
        return Request(store: SuiteChoice(plain: words), key: words.arguments[0], value: words.arguments[1], type: type ?? .string, typeGiven: type != nil)
    }
}
#endif
