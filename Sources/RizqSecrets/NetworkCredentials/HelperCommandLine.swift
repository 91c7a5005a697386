#if Secrets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A credential helper's command line, `[--service NAME] ACTION [ARGUMENT…]` (`--help` prints the
/// usage line): the same for `git-credential-rizq` and `docker-credential-rizq`, which git and
/// docker start with the action as the last word.
package struct HelperCommandLine {
    /// The chain's service.
    package var service: String
    /// The action (`get`, `store`, …).
    package var action: String
    /// The words after the action.
    package var arguments: [String]

    /// Reads `words` (the arguments after the program's name); `--help` prints `usage` and exits
    /// 0, a usage error is one line on standard error and exit 2.
    package init(_ words: [String], program: String, usage: String, defaultService: String) {
        var words = words
        if words.first == "--help" || words.first == "-h" {
            print(usage)
            exit(0)
        }
        service = defaultService
        if words.first == "--service" {
            guard words.count >= 2, !words[1].isEmpty else { HelperStreams.fail(program, 2, "--service needs a name; \(usage)") }
            service = words[1]
            words.removeFirst(2)
        }
        guard let action = words.first else { HelperStreams.fail(program, 2, usage) }
        self.action = action
        arguments = Array(words.dropFirst())
    }

    /// Exits with a usage error unless the action is one of `actions` with no word after it;
    /// `sender` names who sends them ("git"), for the message.
    package func requireAction(among actions: [String], sentBy sender: String, program: String, usage: String) {
        guard actions.contains(action) else {
            let named = action.count <= 32 && action.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            HelperStreams.fail(program, 2, "\(named ? "'\(action)'" : "the action given") is not an action \(sender) sends; \(usage)")
        }
        if !arguments.isEmpty { HelperStreams.fail(program, 2, usage) }
    }
}
#endif
