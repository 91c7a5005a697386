#if Secrets
/// A shell-style pattern for `localStorage` keys: `*` matches any run of characters (none
/// included), `?` exactly one, and `\` makes the next character literal (`\*`). Everything
/// else matches itself; matching is case-sensitive, like the keys.
///
/// ```swift
/// GlobPattern("sb-*-auth-token").matches("sb-abcd-auth-token")   // true
/// ```
package struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    private enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        case one
        case any
    }

    /// The pattern as written.
    package let description: String
    private let tokens: [Token]

    /// A pattern from its text. A trailing lone `\` matches a backslash.
    package init(_ text: String) {
        description = text
        var tokens: [Token] = []
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                tokens.append(.literal(scalar))
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*": if tokens.last != .any { tokens.append(.any) }
            case "?": tokens.append(.one)
            default: tokens.append(.literal(scalar))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        self.tokens = tokens
    }

    /// Whether the pattern has a wildcard at all (else it matches one key only).
    package var hasWildcards: Bool {
        tokens.contains { $0 == .one || $0 == .any }
    }

    /// Whether `key` matches the whole pattern.
    package func matches(_ key: String) -> Bool {
        let scalars = Array(key.unicodeScalars)
        // Iterative matching with one backtrack point per `*`: linear in practice, and no
        // recursion a hostile pattern could blow up.
        var token = 0
        var position = 0
        var starToken = -1
        var starPosition = 0
        while position < scalars.count {
            if token < tokens.count {
                switch tokens[token] {
                case .any:
                    starToken = token
                    starPosition = position
                    token += 1
                    continue
                case .one:
                    token += 1
                    position += 1
                    continue
                case .literal(let scalar) where scalar == scalars[position]:
                    token += 1
                    position += 1
                    continue
                default:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            token = starToken + 1
            starPosition += 1
            position = starPosition
        }
        while token < tokens.count, tokens[token] == .any { token += 1 }
        return token == tokens.count
    }
}
#endif
