#if Secrets
/// The origin a row of Firefox's legacy `webappsstore.sqlite` (and of `storage/ls-archive.sqlite`,
/// its copy made when Firefox moved to LSNG) belongs to.
///
/// Firefox keys those rows by an *origin key* (`dom/storage/StorageUtils.cpp`,
/// `GenerateOriginKey`): the ASCII host reversed, a dot, then `:scheme`, then `:port` when the
/// URL has one (the scheme's default port counts: `http` is always `:80`). For a `file:` page the
/// host is the page's folder. Origin attributes (a container's `^userContextId=1`, a
/// partition's `^partitionKey=…`) are kept apart in `originAttributes`, and make another origin.
///
/// | originAttributes | originKey | origin |
/// | --- | --- | --- |
/// | | `moc.elpmaxe.www.:https:443` | `https://www.example.com` |
/// | | `tsohlacol.:http:8080` | `http://localhost:8080` |
/// | | `1::.:http:8080` | `http://[::1]:8080` |
/// | | `/sgnittes/resu/emoh/.:file` | `file:///home/user/settings/` |
/// | `^userContextId=2` | `moc.elpmaxe.:https:443` | `https://example.com^userContextId=2` |
///
/// Schema 0 (before 2016) kept one `scope` column instead: the origin key, optionally after
/// `<appId>:<t|f>:` and a `^…` attribute suffix (`dom/storage/StorageDBUpdater.cpp`).
enum FirefoxOriginKey {
    /// The ports that an origin leaves out.
    static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// The origin for `originKey` and `attributes` (`^…` or empty), or `nil` when the key is not
    /// one Firefox writes.
    static func origin(originKey: String, attributes: String) -> String? {
        var parts = originKey.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        var port: Int?
        if parts.count >= 3, let last = parts.last, !last.isEmpty, last.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int(last), number <= 65535 else { return nil }
            port = number
            parts.removeLast()
        }
        let scheme = parts.removeLast()
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        // The reversed host may itself hold colons (an IPv6 address).
        let reversed = parts.joined(separator: ":")
        guard reversed.hasSuffix("."), reversed.count > 1 else { return nil }
        let host = String(reversed.dropLast().reversed())
        var origin = scheme.lowercased() + "://"
        if scheme.lowercased() == "file" {
            origin += host
        } else {
            origin += host.contains(":") ? "[" + host + "]" : host
            if let port, defaultPorts[scheme.lowercased()] != port { origin += ":\(port)" }
        }
        return origin + attributes
    }

    /// The origin for a schema-0 `scope`, or `nil` when it is not one Firefox writes.
    static func origin(scope: String) -> String? {
        var rest = Substring(scope)
        var attributes = ""
        // "<appId>:<t|f>:" then either "^<attributes>:" or the origin key.
        if let colon = rest.firstIndex(of: ":"), let appID = UInt32(rest[..<colon]) {
            let afterID = rest[rest.index(after: colon)...]
            if afterID.hasPrefix("t:") || afterID.hasPrefix("f:") {
                let inBrowser = afterID.hasPrefix("t:")
                rest = afterID.dropFirst(2)
                if rest.hasPrefix("^") {
                    guard let end = rest.firstIndex(of: ":") else { return nil }
                    attributes = String(rest[..<end])
                    rest = rest[rest.index(after: end)...]
                } else {
                    var pairs: [String] = []
                    if appID != 0 { pairs.append("appId=\(appID)") }
                    if inBrowser { pairs.append("inBrowser=1") }
                    attributes = pairs.isEmpty ? "" : "^" + pairs.joined(separator: "&")
                }
            }
        }
        return origin(originKey: String(rest), attributes: attributes)
    }
}
#endif
