import RizqPrefs
import RizqJSON

extension PrefValue {
    /// Compact JSON in the suite file's format (tagged `$date` and `$data`).
    var json: String {
        (try? JSONWriter.string(self, pretty: false)) ?? "null"
    }

    /// What `get` prints: a string as it is, anything else as JSON.
    var plain: String {
        if case .string(let text) = self { return text }
        return json
    }
}
