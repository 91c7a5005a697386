#if Secrets
import Logging

extension Logger {
    /// The module's one logger, label `RizqSecrets`: which backend a store went to or a read came
    /// from, how the vault was opened, the Secret Service's calls, a warning for every write in
    /// plain text. Metadata names services, accounts, backends and paths, never a secret.
    static let rizqSecrets = Logger(label: "RizqSecrets")
}
#endif
