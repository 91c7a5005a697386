import Foundation
import RizqJSON

/// The one answer to "is this value, under this key, a credential?" — for every module that
/// lets a value leave a suite or the machine: the importer (a credential goes to the secret
/// store, never to a suite), schema migrations (`MigrationChange.moveCredentialsToSecretStore`),
/// device sync and fleet suites (a credential is never published). One entry point,
/// ``judge(key:value:)``, so the same key and value get the same answer through all four.
///
/// A value is a credential when any of these holds, checked in this order:
///
/// 1. **A known auth library's key**: Firebase `firebase:authUser:*`, Auth0 `@@auth0spajs@@*`,
///    MSAL (`msal.*`, `*-login.windows.net-*`, `*-login.microsoftonline.com-*`), Supabase
///    `sb-*-auth-token`, Amplify/Cognito `CognitoIdentityServiceProvider.*`, Okta
///    `okta-token-storage`, Meteor `Meteor.loginToken*`.
/// 2. **The value's shape** (see ``TokenShape`` and ``CredentialClassifier``): a JWT, a JWE, a
///    `base64-` session blob, an HTTP authorization value, a well-known token prefix (`ghp_`,
///    `sk_live_`, `AIza`, `xoxb-`, …), a PEM private key, a session cookie — as the whole text,
///    inside a JSON string or any JSON value, or as a word inside a longer text; in binary data,
///    inside its printable runs; in text that is base64, inside the text it decodes to.
/// 3. **A JSON value with credential fields**: a field named `access_token`, `refresh_token`,
///    `idToken`, `secret`, `password`, `pass`, `apiKey`, … (any case, `_` or `-`; any name
///    ending in `token` or `secret`) holding a non-empty string, at any depth.
/// 4. **The key's name**, unless the value is a boolean, a date or null (`hasSession`,
///    `tokenExpiry` as a date): the key split at `.`, `/` and `:` into components —
///    - a *strong* marker in any component: `token`, `secret`, `password`, `passwd`,
///      `passphrase`, `passcode`, `pwd`, `jwt`, `credential`, `api_key`, `apikey`,
///      `private_key`, `access_key`, `bearer`, … (``strongKeyMarkers``) — `password.value`,
///      `db.password.primary`, `secret.db`; for a number, only in the last component
///      (`token.ttl = 3600` is a setting, `db.password = 1234` is not);
///    - a *weak* marker, `auth` (not as in `author`) or `session`, only in the last component
///      (`auth.provider` and `session.timeout` are settings; `db.session` is not);
///    - a component that *is* `pin`, `sid`, `otp`, `pass`, `pw` or `dsn` (too short to look for
///      inside other names): `pin`, `card.pin`; or that ends in `_pw`, `_dsn` or `dsn`
///      (`db_pw`, `sentry_dsn`, `databaseDsn`).
package enum CredentialRule {
    /// Why an entry is a credential.
    package struct Verdict: Sendable, Equatable {
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
        /// A phrase for a report, e.g. "Supabase session key (sb-*-auth-token)"; never the value.
        package var reason: String

        package init(evidence: Evidence, reason: String) {
            self.evidence = evidence
            self.reason = reason
        }
    }

    /// Key-name markers that make a credential in any component of the key.
    package static let strongKeyMarkers = [
        "token", "secret", "password", "passwd", "passphrase", "passcode", "pwd", "jwt", "credential",
        "api_key", "api-key", "apikey", "private_key", "privatekey", "access_key", "accesskey", "bearer",
    ]

    /// Key-name markers that make a credential only in the key's last component (`auth` not
    /// inside `author`).
    package static let weakKeyMarkers = ["auth", "session"]

    /// Whole components that mark a credential: too short to look for inside other names (`pin`
    /// is in `spinner`, `sid` in `inside`).
    package static let credentialKeyNames: Set<String> = ["pin", "sid", "otp", "pass", "pw", "dsn"]

    /// Endings of a component that mark a credential (`db_pw`, `sentry_dsn`, `databaseDsn`):
    /// the short names above, joined to a word before them.
    package static let credentialKeySuffixes = ["_pw", "-pw", "_dsn", "-dsn", "dsn"]

    /// Why `value` under `key` is a credential, or `nil` when it does not look like one.
    package static func judge(key: String, value: CredentialCandidate) -> Verdict? {
        if let library = authLibrary(forKey: key) {
            return Verdict(evidence: .authLibraryKey, reason: library)
        }
        if let shape = valueShape(value) {
            return Verdict(evidence: .valueShape, reason: shape)
        }
        if let field = credentialField(in: value) {
            return Verdict(evidence: .jsonFields, reason: field)
        }
        guard value.canHoldSecret else { return nil }
        if let reason = keyNameEvidence(key, lastComponentOnly: value.kind == .number) {
            return Verdict(evidence: .keyName, reason: reason)
        }
        return nil
    }

    /// Why the key's name alone marks a credential (whatever its value), or `nil`.
    package static func keyName(_ key: String) -> Verdict? {
        keyNameEvidence(key, lastComponentOnly: false).map { Verdict(evidence: .keyName, reason: $0) }
    }

    /// Evidence in the value alone that cannot be explained away by a plan: a JWT, JWE, token
    /// prefix or session blob (see ``CredentialClassifier``), as the whole value, inside a JSON
    /// string literal, anywhere inside a JSON value, or as a word inside the text (a URL's
    /// `?key=AIza…`); in binary data or base64 text, inside what they hold. `nil` when there is none.
    package static func valueShape(_ value: CredentialCandidate) -> String? {
        if let shape = textShape(value) { return shape }
        for alternate in value.alternateTexts {
            if let shape = textShape(CredentialCandidate(kind: .text, text: alternate)) { return shape + " (in the data's base64 form)" }
        }
        if value.kind == .text, let decoded = base64Text(value.text), let shape = textShape(CredentialCandidate(kind: .text, text: decoded)) {
            return shape + " (base64-encoded)"
        }
        return nil
    }

    private static func textShape(_ value: CredentialCandidate) -> String? {
        if let shape = TokenShape.kind(of: value.text) { return shape }
        if let node = value.json {
            if case .string(let inner) = node.kind, let shape = CredentialClassifier.match(inner)?.description {
                return shape + " in a JSON string"
            }
            var found: String?
            walkStrings(node, path: "", levels: nestedJSONLevels) { path, text in
                guard found == nil, let shape = CredentialClassifier.match(text)?.description else { return }
                found = shape + " inside the JSON value (at \(path.isEmpty ? "/" : path))"
            }
            if let found { return found }
        }
        return CredentialClassifier.embedded(in: value.text)?.description
    }

    /// How many levels of JSON held in strings inside JSON are looked into (a redux-persist blob
    /// is JSON whose members are JSON text).
    package static let nestedJSONLevels = 3

    /// The text `text` decodes to when it is standard or URL-safe base64 of at least 16
    /// characters (padding optional) decoding to UTF-8 text; `nil` otherwise.
    static func base64Text(_ text: String) -> String? {
        let trimmed = text.trimmingWhiteSpace
        guard trimmed.utf8.count >= 16, trimmed.utf8.count <= 1 << 20,
            trimmed.utf8.allSatisfy({ CredentialFamily.Alphabet.base64URL.contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=") })
        else { return nil }
        var standard = trimmed.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard), !data.isEmpty else { return nil }
        let bytes = [UInt8](data)
        guard UTF8Validation.firstInvalidOffset(in: bytes) == nil, bytes.allSatisfy({ $0 >= 0x20 || $0 == 0x0A || $0 == 0x09 }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key-name evidence of `key`, or `nil` (see the type's rule 4).
    private static func keyNameEvidence(_ key: String, lastComponentOnly: Bool) -> String? {
        let lowered = key.lowercased()
        let components = lowered.split(omittingEmptySubsequences: true) { $0 == "." || $0 == "/" || $0 == ":" }.map(String.init)
        guard let last = components.last else { return nil }
        let strongScope = lastComponentOnly ? [last] : components
        for component in strongScope {
            if let marker = strongKeyMarkers.first(where: { component.contains(ascii: $0) }) {
                return "key name contains '\(marker)'"
            }
        }
        if let marker = weakKeyMarkers.first(where: { last.contains(ascii: $0) && !($0 == "auth" && isOnlyAuthor(last)) }) {
            return "key name contains '\(marker)'"
        }
        if let name = components.first(where: { credentialKeyNames.contains($0) }) {
            return "key name is '\(name)'"
        }
        if let suffix = credentialKeySuffixes.first(where: { suffix in components.contains { $0.hasSuffix(suffix) } }) {
            return "key name ends in '\(suffix)'"
        }
        return nil
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

    // MARK: JSON values

    /// Normalised field names (lowercase, without `_` and `-`) that hold credentials.
    static let credentialFieldNames: Set<String> = [
        "token", "secret", "password", "passwd", "pwd", "passphrase", "passcode", "apikey", "privatekey", "jwt", "credential", "credentials",
        "clientsecret", "sessionid", "sessionkey", "pass", "pw", "dsn",
    ]

    /// The first credential field of a JSON object or array, as a report phrase, or `nil`.
    static func credentialField(in value: CredentialCandidate) -> String? {
        guard let node = value.json else { return nil }
        return credentialField(in: node, path: "", levels: nestedJSONLevels)
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
            let inner = try? JSONReader.parseDocument(text, loneSurrogates: .replace).root
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
