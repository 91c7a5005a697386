#if Secrets
extension ImportError {
    /// Why an import plan could not be used (``ImportError/plan(_:)``). Each message names the file
    /// and the field (`rules[2].to.type`) or position, and what to write instead.
    public enum PlanProblem: Sendable, Equatable {
        /// The plan file could not be read.
        case unreadable(file: String, reason: String)
        /// The plan is not JSON.
        case notJSON(file: String?, position: SourcePosition, reason: String)
        /// The plan is JSON, but a field is missing, of the wrong type, unknown, or invalid.
        case invalid(file: String?, path: String, reason: String)

        init(decoding error: DecodingError, file: String?) {
            func path(_ codingPath: [CodingKey]) -> String {
                var text = ""
                for key in codingPath {
                    if let index = key.intValue {
                        text += "[\(index)]"
                    } else {
                        text += (text.isEmpty ? "" : ".") + key.stringValue
                    }
                }
                return text
            }
            switch error {
            case .keyNotFound(let key, let context):
                self = .invalid(file: file, path: path(context.codingPath + [key]), reason: "this field is required")
            case .typeMismatch(let type, let context):
                self = .invalid(file: file, path: path(context.codingPath), reason: "expected \(Self.describe(type))")
            case .valueNotFound(let type, let context):
                self = .invalid(file: file, path: path(context.codingPath), reason: "expected \(Self.describe(type)), found null")
            case .dataCorrupted(let context):
                self = .invalid(file: file, path: path(context.codingPath), reason: context.debugDescription)
            @unknown default:
                self = .invalid(file: file, path: "", reason: "\(error)")
            }
        }

        private static func describe(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: return "a string"
            case is Bool.Type: return "true or false"
            case is [Any].Type: return "an array"
            default:
                let name = "\(type)"
                if name.hasPrefix("Array") { return "an array" }
                if name.contains("Dictionary") || name.contains("KeyedDecodingContainer") { return "an object" }
                if name.contains("UnmappedKeys") { return "\"skip\" or \"infer\"" }
                return "a value of another type (\(name))"
            }
        }
    }
}

extension ImportError.PlanProblem: CustomStringConvertible {
    /// One line: where, what, and what to do.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "cannot read the plan \(file): \(reason); check the path given with --plan"
        case .notJSON(let file, let position, let reason):
            return "the plan \(file ?? "") is not valid JSON at \(position): \(reason); fix the file (see README, \"The plan\")"
        case .invalid(let file, let path, let reason):
            let place = path.isEmpty ? "" : " at \(path)"
            return "the plan \(file ?? "")\(place) is invalid: \(reason); see README, \"The plan\", for the format"
        }
    }
}
#endif
