/// One change to one key of a suite, as ``SuiteStore/changes()`` delivers it.
public struct SuiteChange: Sendable, Equatable {
    /// Where a change came from.
    public enum Origin: Sendable, Equatable {
        /// Made through a ``SuiteStore`` in this process.
        case local
        /// Written to the suite file by another process (or by hand), seen through inotify.
        case external
    }

    /// The key that changed.
    public var key: String
    /// The new stored value, or `nil` when the key was removed.
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
