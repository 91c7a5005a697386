#if CLI
/// The commands that open their suites, read or write them once and end: they set up no watch
/// on their files (`SuiteStore.openWithoutWatching()`), since they would never read one.
enum OneShotCommand {
    /// Their names: the first word of the command line that is not an option.
    static let names: Set<String> = ["get", "set", "list", "delete", "export"]
}
#endif
