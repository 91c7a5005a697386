#if Secrets
import Foundation
import RizqCredentials
import RizqPrefs

/// Decides an entry whose key or value, as the browser stored it, is not valid Unicode.
///
/// Without a plan that says otherwise it is skipped, and the report names the key and the
/// problem: replacing the bad code units silently would change what the web app stored. A plan
/// may give an undecodable key a name of its own (`"to": {"key": …}`), and choose for the
/// entry (rule first, then plan) ``ImportPlan/UndecodableAction/replace`` (U+FFFD, then the
/// usual decision) or ``ImportPlan/UndecodableAction/data`` (the value's bytes, unchanged,
/// as `Data` in a suite).
struct UndecodableDecider {
    let decider: ImportDecider

    typealias Match = (index: Int, rule: ImportPlan.Rule)

    func decide(_ entry: ImportDump.Entry, _ undecodable: ImportDump.Undecodable, match: Match?) throws(ImportError) -> ImportDecision {
        let action = match?.rule.undecodable ?? decider.plan?.undecodable ?? .skip
        let ruleText = match.map { ImportDecider.ruleText($0.index, $0.rule) } ?? "undecodable: not valid Unicode as stored"
        if case .skip(let reason)? = match?.rule.target {
            return ImportDecision(entry: entry, outcome: .skip(reason: reason ?? "the plan skips it"), rule: ruleText, note: undecodable.reason)
        }
        func skip(_ reason: String) -> ImportDecision {
            ImportDecision(entry: entry, outcome: .skip(reason: reason), rule: ruleText, note: nil)
        }

        // The key: text, a name the rule gives, or (replace) the key with U+FFFD.
        var key: String
        var notes: [String] = []
        if let text = undecodable.key.text {
            key = text
        } else if let match, Self.namesTarget(match.rule.target) {
            key = entry.key
            notes.append("its key is not valid Unicode (\(undecodable.key.problem ?? "")); the plan rule names its target")
        } else if action == .replace, let replaced = undecodable.key.replacingInvalid {
            key = replaced
            notes.append("its key is not valid Unicode (\(undecodable.key.problem ?? "")); the invalid code units became U+FFFD, as the plan says")
        } else {
            return skip(undecodable.reason + "; to import it, give it a name in a plan rule ({\"key\": \"\(entry.key)\", \"to\": {\"key\": \"NEW\"}}) or say \"undecodable\": \"replace\"")
        }

        // The value: text, U+FFFD (replace), or its bytes (data).
        let value = undecodable.value
        if let text = value.text {
            return try decided(ImportDump.Entry(key: key, value: text), source: entry, match: match, notes: notes)
        }
        let problem = value.problem ?? ""
        switch action {
        case .skip:
            return skip(undecodable.reason + "; to import it, say in the plan \"undecodable\": \"replace\" (invalid code units become U+FFFD) or \"data\" (the stored bytes as data)")
        case .replace:
            guard let replaced = value.replacingInvalid else {
                return skip("the value is not valid Unicode (\(problem)) and its encoding is unknown, so there is nothing to replace; say \"undecodable\": \"data\" to keep its bytes")
            }
            notes.append("its value is not valid Unicode (\(problem)); the invalid code units became U+FFFD, as the plan says")
            return try decided(ImportDump.Entry(key: key, value: replaced), source: entry, match: match, notes: notes)
        case .data:
            return try asData(entry, key: key, value: value, match: match, ruleText: ruleText, notes: notes)
        }
    }

    /// The usual decision for the repaired `decoded` entry, reported under the stored key.
    private func decided(_ decoded: ImportDump.Entry, source: ImportDump.Entry, match: Match?, notes: [String]) throws(ImportError) -> ImportDecision {
        var decision = try decider.decide(decoded, match: match)
        decision.entry = source
        decision.note = (notes + [decision.note].compactMap { $0 }).joined(separator: "; ")
        return decision
    }

    /// The value's stored bytes as `Data` into a suite.
    private func asData(_ entry: ImportDump.Entry, key: String, value: StoredString, match: Match?, ruleText: String, notes: [String]) throws(ImportError) -> ImportDecision {
        let problem = value.problem ?? ""
        var suite = decider.defaultSuite
        var targetKey = key
        switch match?.rule.target {
        case .secret?:
            return ImportDecision(
                entry: entry, outcome: .skip(reason: "the value is not valid Unicode (\(problem)), and the Secret Service holds text: say \"undecodable\": \"replace\" to store it with U+FFFD"),
                rule: ruleText, note: nil)
        case .suite(let ruleSuite, let ruleKey, let type)?:
            if let type {
                throw .conversion(key: entry.key, type: type, reason: "its stored value is not valid Unicode (\(problem)), and \"undecodable\": \"data\" keeps its bytes as data; leave the rule's type out")
            }
            suite = ruleSuite ?? suite
            targetKey = ruleKey ?? key
        case .skip?, nil:
            if let finding = CredentialRule.judge(key: key, value: .bytes(value.bytes)) {
                // A credential's bytes never go to a suite file, even as data.
                return ImportDecision(
                    entry: entry, outcome: .skip(reason: "it looks like a credential (\(finding.reason)) but its value is not valid Unicode (\(problem)); the Secret Service holds text: say \"undecodable\": \"replace\" to store it there with U+FFFD"),
                    rule: ruleText, note: nil)
            }
        }
        let note = (notes + ["its value is not valid Unicode (\(problem)); its \(value.bytes.count) stored bytes (\(value.encoding.rawValue)) were kept as data, as the plan says"]).joined(separator: "; ")
        return ImportDecision(
            entry: entry, outcome: .suite(suite: suite, key: targetKey, value: .data(Data(value.bytes)), type: "data", declared: true),
            rule: ruleText, note: note)
    }

    /// Whether a rule's target names the key it writes, so that the stored key's name does not matter.
    private static func namesTarget(_ target: ImportPlan.Target) -> Bool {
        switch target {
        case .suite(_, let key, _): return key != nil
        case .secret(_, let account): return account != nil
        case .skip: return false
        }
    }
}
#endif
