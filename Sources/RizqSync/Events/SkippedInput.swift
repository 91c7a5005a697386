/// Something another device published that this device did not take, and why: a whole replica
/// file (``key`` is `nil`: a link, a FIFO, a file too large or not a replica, a file whose
/// `replica` field names another device than its name) or one key's value in it (a stamp
/// further ahead of this device's clock than the clock's maximum offset, a value that looks like
/// a credential, a value the suite cannot hold, a value that would make the suite too large).
///
/// What was skipped is left where it is, and asked again by every round: a stamp that was too
/// far ahead is taken once the clock has caught up with it. Nothing of the value is ever in the
/// reason.
public struct SkippedInput: Sendable, Hashable, CustomStringConvertible {
    /// The file in the synced folder.
    public var path: String
    /// The device whose replica it is, when known.
    public var device: String?
    /// The key whose value was skipped; `nil` when the whole file was.
    public var key: String?
    /// Why.
    public var reason: String

    /// A skipped file (`key` nil) or value.
    public init(path: String, device: String?, key: String?, reason: String) {
        self.path = path
        self.device = device
        self.key = key
        self.reason = reason
    }

    /// One line: "key 'k' of device d (path): reason", or "path: reason".
    public var description: String {
        if let key {
            return "key '\(key)'" + (device.map { " of device \($0)" } ?? "") + " not taken (\(path)): \(reason)"
        }
        return "\(path) not taken: \(reason)"
    }
}
