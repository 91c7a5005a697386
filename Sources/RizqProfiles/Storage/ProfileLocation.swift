#if Secrets
/// A browser storage to read, resolved from what the user named (see ``ProfileLocator``).
public struct ProfileLocation: Sendable, Equatable {
    /// Which reader it needs.
    public var kind: ProfileStoreKind
    /// The file or folder to copy and read.
    public var path: String
    /// What it is, for people: "Chromium profile 'Default'", "Electron app 'obsidian'".
    public var label: String

    /// A location.
    public init(kind: ProfileStoreKind, path: String, label: String) {
        self.kind = kind
        self.path = path
        self.label = label
    }
}
#endif
