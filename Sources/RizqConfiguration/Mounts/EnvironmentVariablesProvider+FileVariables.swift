#if Configuration
import Configuration
import Foundation
import RizqCore
import RizqMounts

extension EnvironmentVariablesProvider {
    /// swift-configuration's environment provider, with the `NAME_FILE` convention of container
    /// images applied first (``/RizqMounts/FileVariable``, docker-library's `file_env` rules):
    /// for each of `names` (`nil`: every variable `X_FILE` there is, as `X`), `NAME` takes the
    /// value of the file `NAME_FILE` names — every trailing `\n` cut — and `NAME_FILE` is left
    /// out; both set is an error. A value read from a file is marked secret (the convention
    /// exists for passwords and keys), as is any `secretsSpecifier` names.
    ///
    /// ```swift
    /// // DATABASE_PASSWORD_FILE=/run/secrets/db-password in the container's environment
    /// let config = ConfigReader(provider: try EnvironmentVariablesProvider(resolvingFileVariables: ["DATABASE_PASSWORD"]))
    /// let password = try config.requiredString(forKey: "database.password", isSecret: true)
    /// ```
    ///
    /// The files are read once, here, as the environment itself is: a rotated secret file is
    /// read by a new provider (or through a ``MountedFolderProvider`` over its folder, which
    /// follows it live). Naming the variables is the safer form: with `nil`, a variable such as
    /// `SSL_CERT_FILE` makes its file's contents the value of `SSL_CERT`.
    /// - Throws: ``/RizqMounts/MountError`` (its `variable…` cases) when both `NAME` and `NAME_FILE` are set, or the
    ///   file is missing, refused or not text.
    public init(
        resolvingFileVariables names: [String]?,
        environmentVariables: [String: String] = ProcessInfo.processInfo.environment,
        secretsSpecifier: SecretsSpecifier<String, String> = .none,
        arraySeparator: Character = ","
    ) throws(MountError) {
        let (environment, fromFiles) = try FileVariable.resolving(names, in: environmentVariables)
        self.init(
            environmentVariables: environment,
            secretsSpecifier: .dynamic { name, value in fromFiles.contains(name) || secretsSpecifier.isSecret(key: name, value: value) },
            arraySeparator: arraySeparator)
    }
}
#endif
