import Logging

/// The libraries' log lines (a damaged file moved aside, a refused value) as one line each on
/// stderr, so that stdout holds only what a command prints.
struct StderrLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Output.error("\(event.level): \(event.message)")
    }
}
