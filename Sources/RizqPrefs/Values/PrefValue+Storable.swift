import Foundation
import RizqJSON

extension PrefValue {
    /// How deep a stored value may nest: the containers inside one another, counting the value
    /// itself — an array, a dictionary, and the tagged objects of a date, data or a non-finite
    /// number each count as one. The reader refuses a file nested deeper than
    /// `JSONReader.maximumDepth` (512) levels, and the file's top-level object is the first of
    /// them: a value of the suite may use the 511 others. (`[[1]]` nests 2; `1` nests 0.)
    public static let maximumNesting = JSONReader.maximumDepth - 1

    /// Why this value cannot be stored in a suite so that it reads back as itself, and where
    /// inside it (`/settings/0`, empty for the value itself); `nil` when it can.
    ///
    /// What cannot: a value that nests deeper than ``maximumNesting`` (the reader would refuse
    /// the whole file), a `Date` outside ``ISO8601Micro/yearRange``, and a dictionary whose only
    /// key is `$date`, `$data` or `$double` holding a valid payload (it would read back as a
    /// `Date`, `Data` or `Double`). `enclosing` is how many containers hold this value.
    ///
    /// Never recurses deeper than ``maximumNesting``: a value of any depth is judged with a
    /// bounded stack.
    package func storageProblem(enclosing: Int = 0) -> (path: String, reason: String)? {
        switch self {
        case .double(let number):
            return number.isFinite || enclosing < Self.maximumNesting ? nil : Self.tooDeep
        case .data:
            return enclosing < Self.maximumNesting ? nil : Self.tooDeep
        case .date(let date):
            if enclosing >= Self.maximumNesting { return Self.tooDeep }
            return ISO8601Micro.problem(with: date).map { ("", $0 + "; store it as a number of seconds instead") }
        case .array(let items):
            if enclosing >= Self.maximumNesting { return Self.tooDeep }
            for (index, item) in items.enumerated() {
                if let problem = item.storageProblem(enclosing: enclosing + 1) { return Self.inside("/\(index)", problem) }
            }
            return nil
        case .dictionary(let entries):
            if let tag = TaggedValue.lookalikeTag(entries) {
                return ("", "a dictionary whose only key is \"\(tag)\" reads back as a \(TaggedValue.typeName(of: tag)), not a dictionary; store the \(TaggedValue.typeName(of: tag)) itself, or give the dictionary another key")
            }
            if enclosing >= Self.maximumNesting { return Self.tooDeep }
            for (key, value) in entries {
                if let problem = value.storageProblem(enclosing: enclosing + 1) { return Self.inside("/" + key, problem) }
            }
            return nil
        default:
            return nil
        }
    }

    /// The problem of a value nested deeper than ``maximumNesting``. It names no path: one
    /// hundreds of levels long would say nothing.
    private static var tooDeep: (path: String, reason: String) { ("", tooDeepReason) }

    static let tooDeepReason =
        "the value nests deeper than the \(maximumNesting) levels a suite file holds under its top level (each array, dictionary, date, data or non-finite number inside another counts as one); flatten it, or store it as text (a JSON string) instead"

    /// `problem`, found inside the member or element `component`.
    private static func inside(_ component: String, _ problem: (path: String, reason: String)) -> (path: String, reason: String) {
        problem.reason == tooDeepReason ? problem : (component + problem.path, problem.reason)
    }
}
