#if CLI
import RizqPrefs
import RizqJSON

extension PrefValue {
    /// Compact JSON in the suite file's format (tagged `$date` and `$data`).
    package var json: String {
        (try? JSONWriter.string(self, pretty: false)) ?? "null"
    }

    /// What `get` prints: a string as it is, anything else as JSON.
    package var plain: String {
        if case .string(let text) = self { return text }
        return json
    }
}
#endif
