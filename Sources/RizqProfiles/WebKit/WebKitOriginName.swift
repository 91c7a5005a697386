#if Secrets
/// The origin a legacy `*.localstorage` file belongs to, from its name: WebKit's (and Chrome's
/// up to version 60) database identifier `<scheme>_<host>_<port>`, where port 0 means the
/// scheme's default.
///
/// | file name | origin |
/// | --- | --- |
/// | `https_app.rizq.io_0.localstorage` | `https://app.rizq.io` |
/// | `http_localhost_5432.localstorage` | `http://localhost:5432` |
/// | `file__0.localstorage` | `file://` |
/// | `chrome-extension_abcdef_0.localstorage` | `chrome-extension://abcdef` |
enum WebKitOriginName {
    /// The origin for `fileName` (with or without its extension), or `nil` when the name is
    /// not an identifier.
    static func origin(fileName: String) -> String? {
        var stem = Substring(fileName)
        if stem.hasSuffix(".localstorage") { stem = stem.dropLast(".localstorage".count) }
        guard let firstSeparator = stem.firstIndex(of: "_"), let lastSeparator = stem.lastIndex(of: "_"),
            firstSeparator < lastSeparator
        else { return nil }
        let scheme = stem[..<firstSeparator]
        let host = stem[stem.index(after: firstSeparator)..<lastSeparator]
        let portText = stem[stem.index(after: lastSeparator)...]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }),
            !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), port <= 65535
        else { return nil }
        return "\(scheme.lowercased())://\(host)" + (port == 0 ? "" : ":\(port)")
    }
}
#endif
