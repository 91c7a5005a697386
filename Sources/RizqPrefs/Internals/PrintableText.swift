/// Text from outside the process (an environment variable, a file) made safe to put in a
/// message: control characters replaced by `?`, at most 200 characters.
enum PrintableText {
    static func of(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }.prefix(200))
    }
}
