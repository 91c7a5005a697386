#if Secrets
import Foundation

/// A Secret Service call that did not succeed: why, and the message to show (GLib's, the
/// loader's, or the policy's own words; never a secret).
struct ShimFailure: Error, Equatable {
    var reason: SecretServiceFailure
    var detail: String
}

/// The items a search found, by D-Bus object path.
struct ItemPaths: Equatable, Sendable {
    /// Items whose secrets can be read now.
    var unlocked: [String]
    /// Items in a locked collection.
    var locked: [String]

    /// Whether the search found nothing.
    var isEmpty: Bool { unlocked.isEmpty && locked.isEmpty }
}

/// The Secret Service's D-Bus operations, one requirement per operation, each returning what
/// the service answered and deciding nothing: ``SecretServicePolicy`` decides with them.
/// ``ShimCalls`` makes them through the C shim; tests wrap it to see which calls a policy made.
/// "No object" (`/` in the Secret Service API) comes back as `nil`.
protocol SecretServiceCalls {
    /// The count of change signals received so far, or `nil` when they are not being counted
    /// (then nothing may be remembered: ``SecretPathCache``).
    var changes: UInt32? { get }
    /// `Service.SearchItems`: the items whose attributes include `attributes`.
    func search(_ attributes: [String: String]) throws(ShimFailure) -> ItemPaths
    /// `Service.GetSecrets` of one item: its secret, or `nil` when the service gave none (the
    /// item is locked, or gone).
    func secret(at item: String) throws(ShimFailure) -> Data?
    /// `Item.SetSecret`.
    func setSecret(_ secret: Data, isText: Bool, at item: String) throws(ShimFailure)
    /// Sets the item's `Label` property.
    func setLabel(_ label: String, at item: String) throws(ShimFailure)
    /// The item's attribute `name` (from its `Attributes` property), or `nil` when it has none.
    func attribute(_ name: String, of item: String) throws(ShimFailure) -> String?
    /// `Collection.CreateItem`, replacing an item with exactly these attributes: the new item,
    /// and the prompt the service wants performed first, if any.
    func createItem(
        in collection: String, attributes: [String: String], label: String, secret: Data, isText: Bool
    ) throws(ShimFailure) -> (item: String, prompt: String?)
    /// `Item.Delete`: the prompt the service wants performed first, if any.
    func delete(_ item: String) throws(ShimFailure) -> String?
    /// `Service.ReadAlias`: the collection with `alias`, or `nil` when there is none.
    func collection(alias: String) throws(ShimFailure) -> String?
    /// The collection's `Locked` property.
    func isLocked(collection: String) throws(ShimFailure) -> Bool
    /// `Service.Lock` (`lock`) or `Service.Unlock` of items or collections: those done at once,
    /// and the prompt that would do the rest, if any.
    func setLocked(_ objects: [String], lock: Bool) throws(ShimFailure) -> (done: [String], prompt: String?)
    /// `Prompt.Prompt`, then its `Completed` signal: the objects its result names when it is a
    /// list of them (an unlock's or a lock's: those done), else none. Whether the prompt was
    /// dismissed is not passed on (libsecret drops it): an unlock prompt that unlocked nothing was.
    func prompt(_ prompt: String) throws(ShimFailure) -> [String]
}
#endif
