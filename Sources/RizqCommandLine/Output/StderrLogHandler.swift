#if CLI
import Logging

/// The libraries' log lines as one line each on stderr, so that stdout holds only what a
/// command prints. By default only warnings and errors (a damaged file moved aside, a refused
/// value), as `warning: message`; with `--verbose`, every line from debug up, with its library
/// and metadata: `debug [RizqPrefs] wrote suite bytes=120 path=… suite=…`. The libraries never
/// put a secret or a stored value in a log line, so neither mode can show one.
package struct StderrLogHandler: LogHandler {
    package let label: String
    package let verbose: Bool
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level

    package init(label: String, verbose: Bool) {
        self.label = label
        self.verbose = verbose
        logLevel = verbose ? .debug : .warning
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        guard verbose else {
            Output.error("\(event.level): \(event.message)")
            return
        }
        let fields = metadata.merging(event.metadata ?? [:]) { _, new in new }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        Output.error((["\(event.level) [\(label)] \(event.message)"] + fields).joined(separator: " "))
    }
}
#endif
