#if Secrets
import Foundation
import RizqPrefs

/// What an import does with each `localStorage` key: a JSON file for the command-line tool, or
/// a Swift value for apps.
///
/// ```json
/// {
///   "id": "rizq-web-2026",
///   "defaultSuite": "com.rizq.app",
///   "secretService": "com.rizq.app",
///   "unmapped": "infer",
///   "rules": [
///     {"key": "rizq_user_habits", "to": {"type": "json"}},
///     {"key": "rizq_daily_activity", "to": {"suite": "com.rizq.app.activity", "key": "days", "type": "json"}},
///     {"key": "rizq_welcome_shown", "to": {"type": "bool"}},
///     {"pattern": "firebase:authUser:*", "to": {"secret": {"account": "firebase_session"}}},
///     {"pattern": "debug_*", "to": "skip"}
///   ]
/// }
/// ```
///
/// ```swift
/// let plan = ImportPlan(id: "rizq-web-2026", defaultSuite: "com.rizq.app", rules: [
///     .key("rizq_user_habits", to: .suite(type: .json)),
///     .pattern("firebase:authUser:*", to: .secret(account: "firebase_session")),
/// ])
/// ```
///
/// A key is decided by the rule with exactly its name, else by the first pattern rule that
/// matches it, else by ``unmapped``.
///
/// A key or value read from a browser's own storage may not be valid Unicode (a lone UTF-16
/// surrogate, a cut code unit, an unknown format byte): such a key is skipped and named in the
/// report, unless ``undecodable`` (for all keys) or a rule's `undecodable` (for its keys) says
/// otherwise, or the rule gives an undecodable key a new name. A rule names such a key by its
/// ``StoredString/displayText``, e.g. `{"key": "draft\\uD83D", "to": {"key": "draft"}, "undecodable": "replace"}`. A rule's `to` may leave out the suite (``defaultSuite``),
/// the key (the same key), the type (inferred), the secret's service (``secretService``) and
/// account (the key).
public struct ImportPlan: Sendable, Equatable {
    /// What happens to keys no rule names.
    public enum UnmappedKeys: String, Sendable, Codable, CaseIterable {
        /// They are left out (listed as skipped in the report).
        case skip
        /// Their type is inferred and they go to the default suite, and credentials to the
        /// Secret Service, as without a plan (see <doc:ImportingFromLocalStorage>).
        case infer
    }

    /// Which keys a rule is for.
    public enum Source: Sendable, Equatable {
        /// Exactly this key.
        case key(String)
        /// Every key the glob pattern matches: `*` any run of characters (none included), `?`
        /// exactly one, `\` makes the next character literal; case-sensitive, like the keys.
        case pattern(String)
    }

    /// Where a rule sends its keys.
    public enum Target: Sendable, Equatable {
        /// Into `suite` (default: the plan's) under `key` (default: the same key), converted to
        /// `type` (default: inferred).
        case suite(_ suite: String? = nil, key: String? = nil, type: ImportValueType? = nil)
        /// Into the Secret Service under `service` (default: the plan's) and `account`
        /// (default: the key).
        case secret(service: String? = nil, account: String? = nil)
        /// Nowhere: the key is skipped, with `reason` in the report.
        case skip(reason: String? = nil)
    }

    /// What happens to an entry whose key or value, as the browser stored it, is not valid
    /// Unicode (see ``StoredString``).
    public enum UndecodableAction: String, Sendable, Codable, CaseIterable {
        /// Left out; the report names the key and says why (the default).
        case skip
        /// Each invalid code unit becomes U+FFFD (as `TextDecoder` shows it), and the entry is
        /// then decided like any other; the report says so.
        case replace
        /// The value's stored bytes go to the suite as `Data`, unchanged (for a value; an
        /// undecodable key needs a name from the rule, `"to": {"key": …}`). Never to the Secret
        /// Service, which holds text.
        case data
    }

    /// One rule.
    public struct Rule: Sendable, Equatable {
        /// The keys it applies to.
        public var source: Source
        /// What happens to them.
        public var target: Target
        /// What happens to its keys whose key or value is not valid Unicode (default: the plan's
        /// ``ImportPlan/undecodable``).
        public var undecodable: UndecodableAction?

        /// A rule for exactly `key`.
        public static func key(_ key: String, to target: Target = .suite(), undecodable: UndecodableAction? = nil) -> Rule {
            Rule(source: .key(key), target: target, undecodable: undecodable)
        }

        /// A rule for every key that matches the glob `pattern`.
        public static func pattern(_ pattern: String, to target: Target, undecodable: UndecodableAction? = nil) -> Rule {
            Rule(source: .pattern(pattern), target: target, undecodable: undecodable)
        }

        /// A rule from its parts.
        public init(source: Source, target: Target, undecodable: UndecodableAction? = nil) {
            self.source = source
            self.target = target
            self.undecodable = undecodable
        }
    }

    /// The import's id: a second import with the same id changes nothing (see
    /// ``Importer``). Change it to import again on purpose.
    public var id: String
    /// The suite for rules that name none and for inferred keys (default: the app's standard
    /// suite; the tool's `--suite` overrides it).
    public var defaultSuite: String?
    /// The Secret Service `service` for secrets whose rule names none (default: the app id; the
    /// tool's `--service` overrides it).
    public var secretService: String?
    /// What happens to keys that no rule names.
    public var unmapped: UnmappedKeys
    /// The rules.
    public var rules: [Rule]
    /// What happens to entries whose key or value is not valid Unicode, where their rule does
    /// not say (default: ``UndecodableAction/skip``).
    public var undecodable: UndecodableAction

    /// A plan.
    public init(
        id: String, defaultSuite: String? = nil, secretService: String? = nil, unmapped: UnmappedKeys = .infer, rules: [Rule] = [],
        undecodable: UndecodableAction = .skip
    ) {
        self.id = id
        self.defaultSuite = defaultSuite
        self.secretService = secretService
        self.unmapped = unmapped
        self.rules = rules
        self.undecodable = undecodable
    }

    /// The rule that decides `key`, with its index in ``rules``: the rule naming the key
    /// exactly, else the first pattern that matches.
    public func rule(forKey key: String) -> (index: Int, rule: Rule)? {
        if let index = rules.firstIndex(where: { $0.source == .key(key) }) { return (index, rules[index]) }
        for (index, rule) in rules.enumerated() {
            if case .pattern(let pattern) = rule.source, GlobPattern(pattern).matches(key) { return (index, rule) }
        }
        return nil
    }

    /// Checks what the JSON form cannot: names that cannot be suites or services, empty keys,
    /// and two rules for one key.
    /// - Throws: ``ImportError/plan(_:)``, holding ``ImportError/PlanProblem/invalid(file:path:reason:)``.
    public func validate(file: String? = nil) throws(ImportError) {
        if let problem = Self.idProblem(id) { throw .plan(.invalid(file: file, path: "id", reason: problem)) }
        if let suite = defaultSuite, let problem = Self.suiteProblem(suite) {
            throw .plan(.invalid(file: file, path: "defaultSuite", reason: "'\(suite)' cannot name a suite: \(problem)"))
        }
        if let service = secretService, service.isEmpty || service.utf8.contains(0) {
            throw .plan(.invalid(file: file, path: "secretService", reason: "the service name is empty or holds a NUL byte"))
        }
        var exactKeys: [String: Int] = [:]
        for (index, rule) in rules.enumerated() {
            let path = "rules[\(index)]"
            switch rule.source {
            case .key(let key):
                if let earlier = exactKeys[key] {
                    throw .plan(.invalid(file: file, path: path, reason: "key '\(key)' already has rule \(earlier); give each key one rule"))
                }
                exactKeys[key] = index
            case .pattern(let pattern):
                if pattern.isEmpty { throw .plan(.invalid(file: file, path: path + ".pattern", reason: "the pattern is empty")) }
            }
            switch rule.target {
            case .suite(let suite, let key, _):
                if let suite, let problem = Self.suiteProblem(suite) {
                    throw .plan(.invalid(file: file, path: path + ".to.suite", reason: "'\(suite)' cannot name a suite: \(problem)"))
                }
                if key?.isEmpty == true { throw .plan(.invalid(file: file, path: path + ".to.key", reason: "the key is empty; leave it out to keep the same key")) }
            case .secret(let service, let account):
                if let service, service.isEmpty || service.utf8.contains(0) {
                    throw .plan(.invalid(file: file, path: path + ".to.secret.service", reason: "the service name is empty or holds a NUL byte"))
                }
                if let account, account.isEmpty || account.utf8.contains(0) {
                    throw .plan(.invalid(file: file, path: path + ".to.secret.account", reason: "the account is empty or holds a NUL byte; leave it out to use the key"))
                }
            case .skip:
                break
            }
        }
    }

    /// Why `suite` cannot be an import's target, or `nil`.
    static func suiteProblem(_ suite: String) -> String? {
        if SuiteCatalog.isImportRecord(suite) { return "it is where imports are recorded; choose another suite" }
        return SuiteLocation.problem(withName: suite)
    }

    static func idProblem(_ id: String) -> String? {
        if id.isEmpty { return "the id is empty; name the import, e.g. \"rizq-web-2026\"" }
        if id.utf8.count > 200 { return "the id is longer than 200 bytes" }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "the id holds a control character" }
        return nil
    }
}
#endif
