#if Configuration
import Configuration

/// How a swift-configuration key such as `http.timeout` finds its value in a suite.
///
/// A ``SuiteStoreProvider`` uses one mapping for every key; the default is ``dottedKey``.
///
/// | suite file | `http.timeout` with ``dottedKey`` | with ``nestedPath`` |
/// | --- | --- | --- |
/// | `{"http.timeout": 30}` | `30` | missing |
/// | `{"http": {"timeout": 30}}` | missing | `30` |
public enum SuiteKeyMapping: Sendable, Equatable {
    /// The key's components joined with `.` name one suite key: `http.timeout` is the suite key
    /// `"http.timeout"`, the key that `rizq-prefs set http.timeout 30 --int` writes. Nested
    /// objects are not looked into.
    case dottedKey

    /// The first component names a suite key and the others a path into its nested JSON
    /// objects: `http.timeout` is `"timeout"` inside the object stored under `"http"` (as a
    /// `@CodableUserDefault` or `rizq-prefs set http '{"timeout": 30}' --json` stores it).
    case nestedPath

    /// The suite key that holds the value of `key` (or the object it is nested in).
    package func suiteKey(for key: AbsoluteConfigKey) -> String {
        switch self {
        case .dottedKey: return key.components.joined(separator: ".")
        case .nestedPath: return key.components.first ?? ""
        }
    }

    /// The components to follow inside the suite key's value.
    func path(for key: AbsoluteConfigKey) -> ArraySlice<String> {
        switch self {
        case .dottedKey: return []
        case .nestedPath: return key.components.dropFirst()
        }
    }
}
#endif
