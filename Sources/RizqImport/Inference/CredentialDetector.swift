import Foundation
import RizqJSON
import RizqPrefs

/// Recognises credentials among `localStorage` entries, so that they go to the Secret Service
/// and never to a suite file.
///
/// An entry is a credential when any of these holds, checked in this order:
///
/// 1. **A known auth library's key**: Firebase `firebase:authUser:*`, Auth0 `@@auth0spajs@@*`,
///    MSAL (`msal.*`, `*-login.windows.net-*`, `*-login.microsoftonline.com-*`), Supabase
///    `sb-*-auth-token`, Amplify/Cognito `CognitoIdentityServiceProvider.*`, Okta
///    `okta-token-storage`, Meteor `Meteor.loginToken*`.
/// 2. **The value's shape** (also inside a JSON string literal, and anywhere inside a JSON value),
///    see `TokenShape`: a JWT (three base64url parts whose header is JSON), a five-part JWE, a
///    `base64-` session blob (Supabase SSR), an HTTP authorization value (`Bearer …`, `Token …`,
///    `Basic` with a user and password), a well-known token prefix (Google `ya29.` and `AIza`,
///    GitHub, GitLab, AWS, Stripe `sk_live_`/`sk_test_`/`rk_…`/`whsec_`, `sk-` keys of OpenAI,
///    Anthropic and others, npm, Slack `xox?-`, Hugging Face, and more), a PEM private key, or a
///    cookie string holding a session cookie (`connect.sid=…`, `PHPSESSID=…`).
/// 3. **A JSON value with credential fields**: a field named `access_token`, `refresh_token`,
///    `idToken`, `secret`, `password`, `apiKey`, … (any case, `_` or `-`; any name ending in
///    `token` or `secret`) holding a non-empty string, at any depth.
/// 4. **The key's name** contains `token`, `auth` (not as in `author`), `session`, `secret`,
///    `password`, `passwd`, `pwd`, `jwt`, `credential`, `api_key`, `apikey`, … (any case, see
///    ``keyNameMarkers``), or is `pin`, `sid`, `otp` or `pass` — unless the value is a
///    property-list boolean or date, which cannot hold a credential (`hasSession`, `tokenExpiry`).
package enum CredentialDetector {
    /// Why an entry is a credential.
    package struct Finding: Sendable, Equatable {
        /// What kind of evidence it is.
        package enum Evidence: String, Sendable, Codable {
            /// The key belongs to a known auth library.
            case authLibraryKey
            /// The value has a token's shape (JWT, JWE, token prefix, session blob).
            case valueShape
            /// The value is JSON with credential fields.
            case jsonFields
            /// The key's name says so.
            case keyName
        }

        /// The kind of evidence.
        package var evidence: Evidence
        /// A phrase for the report, e.g. "Supabase session key (sb-*-auth-token)"; never the value.
        package var reason: String
    }

    /// Substrings of key names that mark a credential (compared lowercased; `auth` not inside
    /// `author`).
    package static let keyNameMarkers = [
        "token", "auth", "session", "secret", "password", "passwd", "passphrase", "passcode", "pwd", "jwt", "credential",
        "api_key", "api-key", "apikey", "private_key", "privatekey", "access_key", "accesskey", "bearer",
    ]

    /// Whole key names that mark a credential (compared lowercased): too short to look for inside
    /// other names (`pin` is in `spinner`, `sid` in `inside`).
    package static let credentialKeyNames: Set<String> = ["pin", "sid", "otp", "pass"]

    /// Why the entry `key` = `value` is a credential, or `nil` when it does not look like one.
    package static func inspect(key: String, value: String) -> Finding? {
        inspect(key: key, value: StoredValue(value))
    }

    /// ``inspect(key:value:)`` of a value whose JSON the caller may look into as well.
    static func inspect(key: String, value: StoredValue) -> Finding? {
        if let library = authLibrary(forKey: key) {
            return Finding(evidence: .authLibraryKey, reason: library)
        }
        if let shape = strongValueShape(value) {
            return Finding(evidence: .valueShape, reason: shape)
        }
        if let field = credentialField(in: value) {
            return Finding(evidence: .jsonFields, reason: field)
        }
        switch value.typed {
        case .bool?, .date?: return nil
        default: break
        }
        let lowered = key.lowercased()
        if let marker = keyNameMarkers.first(where: { lowered.contains(ascii: $0) && !($0 == "auth" && isOnlyAuthor(lowered)) }) {
            return Finding(evidence: .keyName, reason: "key name contains '\(marker)'")
        }
        if credentialKeyNames.contains(lowered) {
            return Finding(evidence: .keyName, reason: "key name is '\(lowered)'")
        }
        return nil
    }

    /// Evidence in the value alone that cannot be explained away by a plan: a JWT, JWE, token
    /// prefix or session blob (see ``CredentialClassifier``), as the whole value, inside a JSON
    /// string literal, anywhere inside a JSON value, or as a word inside the text (a URL's
    /// `?key=AIza…`). `nil` when there is none.
    package static func strongValueShape(_ value: String) -> String? {
        strongValueShape(StoredValue(value))
    }

    /// ``strongValueShape(_:)`` of a value whose JSON the caller may look into as well.
    static func strongValueShape(_ value: StoredValue) -> String? {
        if let shape = tokenShape(value.text) { return shape }
        if let node = value.json {
            if case .string(let inner) = node.kind, let shape = CredentialClassifier.match(inner)?.description {
                return shape + " in a JSON string"
            }
            var found: String?
            walkStrings(node, path: "", levels: ValueInference.nestedJSONLevels) { path, text in
                guard found == nil, let shape = CredentialClassifier.match(text)?.description else { return }
                found = shape + " inside the JSON value (at \(path.isEmpty ? "/" : path))"
            }
            if let found { return found }
        }
        return CredentialClassifier.embedded(in: value.text)?.description
    }

    /// Whether every `auth` in the (lowercased) key is the start of `author` (`author_name`).
    private static func isOnlyAuthor(_ lowered: String) -> Bool {
        lowered.contains(ascii: "author") && !lowered.replacingOccurrences(of: "author", with: "").contains(ascii: "auth")
    }

    // MARK: Auth libraries

    static func authLibrary(forKey key: String) -> String? {
        if key.hasPrefix("firebase:authUser:") { return "Firebase auth user (firebase:authUser:*)" }
        if key.hasPrefix("@@auth0spajs@@") { return "Auth0 SPA cache (@@auth0spajs@@*)" }
        let lowered = key.lowercased()
        if lowered.hasPrefix("msal.") || lowered.contains(ascii: "-login.windows.net-") || lowered.contains(ascii: "-login.microsoftonline.com-") {
            return "MSAL token cache"
        }
        if key.hasPrefix("sb-"), key.hasSuffix("-auth-token") || key.contains(ascii: "-auth-token.") {
            return "Supabase session (sb-*-auth-token)"
        }
        if key.hasPrefix("CognitoIdentityServiceProvider.") { return "Amplify/Cognito (CognitoIdentityServiceProvider.*)" }
        if key == "okta-token-storage" || key.hasPrefix("okta-token-storage") { return "Okta token storage (okta-token-storage)" }
        if key.hasPrefix("Meteor.loginToken") { return "Meteor login token (Meteor.loginToken)" }
        return nil
    }

    // MARK: Value shapes

    /// The token kind of a whole string value, or `nil` (see ``TokenShape``; tokens inside a
    /// longer text: ``CredentialClassifier/embedded(in:)``).
    static func tokenShape(_ raw: String) -> String? {
        TokenShape.kind(of: raw)
    }

    /// A JWS (3 parts) or JWE (5 parts) in compact form: base64url parts joined by dots, the
    /// first being a JSON header with `alg` (or `enc`).
    static func isCompactJOSE(_ text: String, parts count: Int) -> Bool {
        guard text.hasPrefix("eyJ"), text.count >= 20 else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == count, parts.allSatisfy({ $0.allSatisfy(isBase64URLCharacter) }), !parts[0].isEmpty else { return false }
        guard let header = base64URLDecode(parts[0]),
            let node = try? JSONNode.parseWebJSONDocument(Array(header)).root,
            node["alg"] != nil || node["enc"] != nil
        else { return false }
        return count == 3 ? !parts[1].isEmpty : !parts[3].isEmpty
    }

    private static func base64URLDecode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    private static func isBase64URLCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }

    // MARK: JSON values

    /// Normalised field names (lowercase, without `_` and `-`) that hold credentials.
    static let credentialFieldNames: Set<String> = [
        "token", "secret", "password", "passwd", "pwd", "passphrase", "passcode", "apikey", "privatekey", "jwt", "credential", "credentials",
        "clientsecret", "sessionid", "sessionkey",
    ]

    /// The first credential field of a JSON object or array, as a report phrase, or `nil`.
    static func credentialField(in value: StoredValue) -> String? {
        guard let node = value.json else { return nil }
        return credentialField(in: node, path: "", levels: ValueInference.nestedJSONLevels)
    }

    private static func credentialField(in node: JSONNode, path: String, levels: Int) -> String? {
        switch node.kind {
        case .object(let members):
            for member in members {
                let memberPath = path + "/" + member.key
                if isCredentialFieldName(member.key), hasContent(member.value) {
                    return "JSON value with a credential field (\(memberPath))"
                }
                if let found = credentialField(in: nestedJSON(member.value, levels: levels), path: memberPath, levels: levels - 1) {
                    return found
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = credentialField(in: nestedJSON(element, levels: levels), path: path + "/\(index)", levels: levels - 1) {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    static func isCredentialFieldName(_ name: String) -> Bool {
        let normalized = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return credentialFieldNames.contains(normalized) || normalized.hasSuffix("token") || normalized.hasSuffix("secret")
    }

    /// A non-empty string (not `"null"`/`"undefined"`), or a non-empty object holding one.
    private static func hasContent(_ node: JSONNode) -> Bool {
        switch node.kind {
        case .string(let text): return !text.isEmpty && text != "null" && text != "undefined"
        case .object(let members): return members.contains { hasContent($0.value) }
        default: return false
        }
    }

    /// A string that holds JSON, decoded (while `levels` remain); otherwise the node itself.
    private static func nestedJSON(_ node: JSONNode, levels: Int) -> JSONNode {
        guard levels > 0, let text = node.string, let first = text.utf8.first,
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let inner = try? JSONNode.parseWebJSON(text)
        else { return node }
        return inner
    }

    private static func walkStrings(_ node: JSONNode, path: String, levels: Int, _ visit: (String, String) -> Void) {
        switch node.kind {
        case .string(let text):
            visit(path, text)
            let nested = nestedJSON(node, levels: levels)
            if nested.string == nil { walkStrings(nested, path: path, levels: levels - 1, visit) }
        case .object(let members):
            for member in members { walkStrings(member.value, path: path + "/" + member.key, levels: levels, visit) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { walkStrings(element, path: path + "/\(index)", levels: levels, visit) }
        default:
            break
        }
    }
}
