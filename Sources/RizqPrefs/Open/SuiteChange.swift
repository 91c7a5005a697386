/// One change to one key of a suite, as ``SuiteStore/changes()`` delivers it.
public struct SuiteChange: Sendable, Equatable {
    /// Where a change came from.
    public enum Origin: Sendable, Equatable {
        /// Made through a ``SuiteStore`` in this process.
        case local
        /// Written to the suite file by another process (or by hand), seen through inotify; or an
        /// administrator's layer or the installed schema changed.
        case external
    }

    /// The key that changed.
    public var key: String
    /// The key's new value as readers see it (through an administrator's layers and the schema,
    /// before the registered defaults), or `nil` when no layer has it now.
    public var newValue: PrefValue?
    /// Whether this process or another one made the change.
    public var origin: Origin

    /// Creates a change record.
    public init(key: String, newValue: PrefValue?, origin: Origin) {
        self.key = key
        self.newValue = newValue
        self.origin = origin
    }
}
