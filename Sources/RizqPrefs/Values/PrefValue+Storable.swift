import Foundation

extension PrefValue {
    /// Why this value cannot be stored in a suite so that it reads back as itself, and where
    /// inside it (`/settings/0`, empty for the value itself); `nil` when it can.
    ///
    /// Three things cannot: a NaN or an infinity (JSON has no literal for them), a `Date` outside
    /// ``ISO8601Micro/yearRange``, and a dictionary whose only key is `$date` or `$data` holding
    /// a valid payload (it would read back as a `Date` or `Data`).
    func storageProblem() -> (path: String, reason: String)? {
        switch self {
        case .double(let number):
            return number.isFinite ? nil : ("", "the value contains NaN or an infinity, which JSON cannot hold")
        case .date(let date):
            return ISO8601Micro.problem(with: date).map { ("", $0 + "; store it as a number of seconds instead") }
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let problem = item.storageProblem() { return ("/\(index)" + problem.path, problem.reason) }
            }
            return nil
        case .dictionary(let entries):
            if let tag = TaggedValue.lookalikeTag(entries) {
                let type = tag == TaggedValue.dateTag ? "Date" : "Data"
                return ("", "a dictionary whose only key is \"\(tag)\" reads back as a \(type), not a dictionary; store the \(type) itself, or give the dictionary another key")
            }
            for (key, value) in entries {
                if let problem = value.storageProblem() { return ("/" + key + problem.path, problem.reason) }
            }
            return nil
        default:
            return nil
        }
    }
}
