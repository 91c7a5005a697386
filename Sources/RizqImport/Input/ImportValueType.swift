#if Secrets
/// The type a plan rule gives a value, and how a `localStorage` string becomes it.
///
/// | type | accepts | stored as |
/// | --- | --- | --- |
/// | `bool` | `true`, `false`, `1`, `0` | `true` / `false` |
/// | `int` | an integer in the 64-bit range (`"42"`, `"-503"`, `"05"`) | an integer |
/// | `double` | a finite decimal number (`"0.5"`, `"1e3"`, `"42"`) | a double |
/// | `string` | anything, as is | a string |
/// | `date` | ISO 8601 (`2026-11-22T13:47:00.123Z`, `2026-11-22`) or epoch milliseconds (`1732283220123`) | `{"$date": …}` |
/// | `json` | any JSON text | nested JSON, ready for `@CodableUserDefault` |
/// | `data` | base64 text | `{"$data": …}` |
///
/// A value from a property list has a type already; it converts where nothing is lost:
///
/// | type | accepts |
/// | --- | --- |
/// | `bool` | a boolean, the integers 0 and 1, and the texts above |
/// | `int` | an integer in the 64-bit range, a real with no fraction, and the texts above |
/// | `double` | a real, an integer, and the texts above |
/// | `string` | a string; a boolean, integer or real as its text |
/// | `date` | a date, and the texts above |
/// | `json` | data holding JSON text (a `JSONEncoder`-encoded `Codable`), a string holding JSON, and any other value as it is |
/// | `data` | data, and base64 text |
///
/// A value that does not parse as its type stops the import before anything is written.
public enum ImportValueType: String, Sendable, CaseIterable, Codable {
    /// `true`/`false`.
    case bool
    /// A 64-bit integer.
    case int
    /// A double.
    case double
    /// Text, unchanged.
    case string
    /// A point in time.
    case date
    /// A nested JSON value.
    case json
    /// Bytes.
    case data
}
#endif
