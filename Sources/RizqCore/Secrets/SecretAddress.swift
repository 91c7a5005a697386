/// Where one secret is: the `service` and `account` of its item, in any ``SecretStore``. Never
/// the secret itself, so it can go into reports, journals and error messages.
public struct SecretAddress: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The store's service name (the `service` attribute of a Secret Service item).
    public var service: String
    /// The account, the secret's name (the `account` attribute).
    public var account: String

    /// The address of `account` under `service`.
    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    /// "account (service S)".
    public var description: String { "\(account) (service \(service))" }
}
