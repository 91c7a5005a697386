#if Secrets
import Foundation
import RizqCredentials
import RizqPrefs

/// What happens to one `localStorage` entry, and which rule decided it: a plan rule, transient
/// login state, credential detection, or inference (in that order; see ``Importer``).
struct ImportDecision: Sendable {
    enum Outcome: Sendable {
        /// Into `suite` under `key`; `declared`: the type came from the plan, not inference.
        case suite(suite: String, key: String, value: PrefValue, type: String, declared: Bool)
        /// Into the Secret Service: `value`'s bytes, text or not.
        case secret(service: String, account: String, value: Data, isText: Bool)
        /// Nowhere, for `reason`.
        case skip(reason: String)
    }

    var entry: ImportDump.Entry
    var outcome: Outcome
    /// Which rule decided, for the report.
    var rule: String
    /// Something the reader of the report should know (a plan overridden for safety, a
    /// non-string value).
    var note: String?
}

/// Decides entries against a plan (or none) and the import's defaults.
struct ImportDecider: Sendable {
    let plan: ImportPlan?
    let defaultSuite: String
    let defaultService: String

    func decide(_ entry: ImportDump.Entry) throws(ImportError) -> ImportDecision {
        let match = plan?.rule(forKey: entry.key)
        if let undecodable = entry.undecodable {
            return try UndecodableDecider(decider: self).decide(entry, undecodable, match: match)
        }
        return try decide(entry, match: match)
    }

    /// Decides a text entry by the plan rule `match` (the rule for its key, or `nil`).
    func decide(_ entry: ImportDump.Entry, match: (index: Int, rule: ImportPlan.Rule)?) throws(ImportError) -> ImportDecision {
        let key = entry.key
        let stored = StoredValue(entry)
        let nonString = entry.typedValue != nil || entry.originalKind == .string ? nil : "the dump held \(entry.originalKind.rawValue) here, not a string; its JSON text was used"
        if let problem = entry.problem {
            return Self.unreadable(entry, problem: problem, match: match)
        }
        if let (index, rule) = match {
            let ruleText = Self.ruleText(index, rule)
            switch rule.target {
            case .skip(let reason):
                return ImportDecision(entry: entry, outcome: .skip(reason: reason ?? "the plan skips it"), rule: ruleText, note: nonString)
            case .secret(let service, let account):
                if let nothing = stored.nothingName {
                    return ImportDecision(entry: entry, outcome: .skip(reason: "it holds no value (\(nothing)): there is no secret to store"), rule: ruleText, note: nonString)
                }
                return ImportDecision(entry: entry, outcome: secret(stored, service: service ?? defaultService, account: account ?? key), rule: ruleText, note: nonString)
            case .suite(let suite, let targetKey, let type):
                let suiteName = suite ?? defaultSuite
                if let shape = CredentialRule.valueShape(stored.candidate) {
                    // A credential never goes to a suite file, whatever the plan says.
                    return ImportDecision(
                        entry: entry, outcome: secret(stored, service: defaultService, account: key), rule: ruleText,
                        note: "the plan sends it to suite \(suiteName), but the value is a credential (\(shape)): it went to the Secret Service instead, account '\(key)'")
                }
                guard let type else {
                    let inferred = ValueInference.infer(stored)
                    return ImportDecision(
                        entry: entry,
                        outcome: .suite(suite: suiteName, key: targetKey ?? key, value: inferred.value, type: Self.typeName(inferred.value), declared: false),
                        rule: ruleText + ", type inferred: " + Self.explain(inferred), note: nonString)
                }
                let converted: PrefValue?
                do {
                    converted = try type.convert(stored)
                } catch {
                    throw .conversion(key: key, type: type, reason: error.reason)
                }
                guard let value = converted else {
                    return ImportDecision(entry: entry, outcome: .skip(reason: "its JSON is null: there is nothing to store"), rule: ruleText, note: nonString)
                }
                return ImportDecision(
                    entry: entry, outcome: .suite(suite: suiteName, key: targetKey ?? key, value: value, type: type.rawValue, declared: true),
                    rule: ruleText, note: nonString)
            }
        }
        if plan?.unmapped == .skip {
            return ImportDecision(entry: entry, outcome: .skip(reason: "no plan rule names it, and the plan skips unmapped keys"), rule: "plan: unmapped keys are skipped", note: nil)
        }
        if let reason = TransientLoginState.reason(forKey: key) {
            return ImportDecision(entry: entry, outcome: .skip(reason: reason), rule: "transient login state", note: nil)
        }
        if let finding = CredentialRule.judge(key: key, value: stored.candidate) {
            let rule = "credential: " + finding.reason
            if let nothing = stored.nothingName {
                return ImportDecision(entry: entry, outcome: .skip(reason: "it looks like a credential but holds no value (\(nothing))"), rule: rule, note: nil)
            }
            return ImportDecision(entry: entry, outcome: secret(stored, service: defaultService, account: key), rule: rule, note: nonString)
        }
        let inferred = ValueInference.infer(stored)
        return ImportDecision(
            entry: entry, outcome: .suite(suite: defaultSuite, key: key, value: inferred.value, type: Self.typeName(inferred.value), declared: false),
            rule: "inferred: " + Self.explain(inferred), note: nonString)
    }

    /// "plan rules[2] (pattern 'sb-*')", for the report.
    static func ruleText(_ index: Int, _ rule: ImportPlan.Rule) -> String {
        "plan rules[\(index)] (\(describe(rule.source)))"
    }

    private func secret(_ stored: StoredValue, service: String, account: String) -> ImportDecision.Outcome {
        let payload = stored.secret
        return .secret(service: service, account: account, value: payload.bytes, isText: payload.isText)
    }

    /// An entry whose value a suite cannot hold: skipped with the reader's reason, whatever a
    /// plan rule says (a rule that skips it gives its own reason).
    private static func unreadable(_ entry: ImportDump.Entry, problem: String, match: (index: Int, rule: ImportPlan.Rule)?) -> ImportDecision {
        guard let (index, rule) = match else {
            return ImportDecision(entry: entry, outcome: .skip(reason: problem), rule: "unreadable value", note: nil)
        }
        if case .skip(let reason) = rule.target {
            return ImportDecision(entry: entry, outcome: .skip(reason: reason ?? "the plan skips it"), rule: ruleText(index, rule), note: problem)
        }
        return ImportDecision(entry: entry, outcome: .skip(reason: problem), rule: ruleText(index, rule), note: "the plan's rule cannot apply: a suite cannot hold the value")
    }

    static func describe(_ source: ImportPlan.Source) -> String {
        switch source {
        case .key(let key): return "key '\(key)'"
        case .pattern(let pattern): return "pattern '\(pattern)'"
        }
    }

    static func explain(_ result: ValueInference.Result) -> String {
        result.nestedDecoded > 0
            ? result.rule.explanation + " (\(result.nestedDecoded) JSON string(s) inside it decoded)"
            : result.rule.explanation
    }

    /// The report's type name of a suite value.
    static func typeName(_ value: PrefValue) -> String {
        switch value {
        case .dictionary, .array, .null: return "json"
        default: return value.kindName
        }
    }

}
#endif
