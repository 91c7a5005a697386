#if Secrets
/// Where the item that a lookup last read lives, per service and account: its D-Bus object path,
/// never its secret. Reading the account again asks the Secret Service for the secret at that
/// path — one round trip (`GetSecrets`) instead of two (`SearchItems`, then `GetSecrets`).
///
/// ## Why a remembered path can be trusted
///
/// A path can come to mean something else: gnome-keyring gives a deleted item's number to a new
/// item after a restart; another process may change an item's attributes in place, so that it no
/// longer belongs to the account; a keyring may be locked. So an entry is trusted only while the
/// Secret Service has sent no signal since the search that found the path. The shim's GDBus
/// filter counts every signal the connection receives (`rizq_secret_changes`); its match rules
/// make those include every signal under `/org/freedesktop/secrets` and every change of owner of
/// the name `org.freedesktop.secrets` (signals other GLib code of the process subscribed to on
/// the same connection count too, which only costs a search). An entry keeps the count from before
/// its search; a read at the path is used only if the count was the same before the read and
/// still is after its reply. Anything else — a moved count, no secret, any error — drops the
/// entry and takes the full lookup, which tells missing, locked and present apart. So a read
/// returns what the full lookup would have returned. That rests on four things:
///
/// 1. **The service announces each change.** Items created, deleted or changed (their secret,
///    attributes, label) come as `ItemCreated`, `ItemDeleted`, `ItemChanged` from the collection,
///    collections as `CollectionCreated`, `CollectionDeleted`, `CollectionChanged` from the
///    service (Secret Service API, the `org.freedesktop.Secret.Collection` and
///    `org.freedesktop.Secret.Service` interfaces:
///    <https://specifications.freedesktop.org/secret-service/latest/>); locking shows as a
///    changed property of the collection or item. A provider sends the signal as it makes the
///    change, before it handles a later call: gnome-keyring handles one message at a time. (This
///    is an assumption about the provider, not a guarantee of the specification.) A new daemon
///    shows as `NameOwnerChanged` from the bus, and it does not know this process's session,
///    so a `GetSecrets` sent to it fails whatever the count says.
/// 2. **The signals reach this connection.** The shim adds match rules for them
///    (`org.freedesktop.DBus.AddMatch`) and waits for the bus's replies before any call whose
///    answer may be remembered; the bus routes a broadcast signal to every connection whose
///    rules match it (D-Bus Specification, "Message Bus Message Routing" and "AddMatch":
///    <https://dbus.freedesktop.org/doc/dbus-specification.html#message-bus-routing>).
/// 3. **They arrive in order.** D-Bus delivers one sender's messages to a receiver in the order
///    the sender sent them: the total order its maintainers document and applications rely on
///    ("a D-Bus API between some cooperating processes can rely on total ordering of messages",
///    Simon McVittie, <https://lists.freedesktop.org/archives/dbus/2009-November/011927.html>;
///    "D-Bus currently guarantees that C will see A's message before B's message", Thiago
///    Macieira, in the thread where dbus-broker's author explains that the broker, like
///    dbus-daemon, routes every message through itself as one hop,
///    <https://lists.freedesktop.org/archives/dbus/2017-September/017297.html>). A change signal
///    the service sent before its reply to our `GetSecrets` therefore arrives before that reply.
/// 4. **GDBus counts them first.** Filters run "on all incoming and outgoing messages, prior to
///    standard dispatch", on GDBus's message thread, in the order messages arrive
///    (`g_dbus_connection_add_filter`: <https://docs.gtk.org/gio/method.DBusConnection.add_filter.html>);
///    a synchronous call returns only after its reply was dispatched, so by then the count
///    includes every signal that arrived before the reply.
///
/// If the service changed anything after the search and before it answered the read, its signal
/// came first and the count moved: the read is not used. If the count did not move, the service
/// answered before any change since the search, and the secret read is the one a full lookup at
/// that moment would have found.
///
/// The table and its policy live here; the shim only counts. It is used on the one libsecret
/// worker thread, and emptied whenever the connection is dropped.
struct SecretPathCache {
    /// One account of one service.
    struct Key: Hashable {
        var service: String
        var account: String
    }

    private struct Entry {
        var path: String
        /// The item's `password_expiry_utc` attribute when it was found (attributes change
        /// only with a signal, as the secret does).
        var expiry: String?
        /// The count of signals before the search that found `path`.
        var changes: UInt32
    }

    /// At most this many entries; then the table starts over. An app reads a handful of
    /// accounts; a tool that walks many must not grow it without bound.
    static let limit = 64

    private var entries: [Key: Entry] = [:]

    /// The path remembered for `key`, if nothing changed since the search that found it
    /// (`changes`: the count now); otherwise the entry goes.
    mutating func path(for key: Key, changes: UInt32) -> (path: String, expiry: String?)? {
        guard let entry = entries[key] else { return nil }
        guard entry.changes == changes else {
            entries[key] = nil
            return nil
        }
        return (entry.path, entry.expiry)
    }

    /// A read at `path` found the secret of `key`; `changes` is the count from before the
    /// search that found the path.
    mutating func remember(_ path: String, expiry: String? = nil, for key: Key, changesBefore changes: UInt32) {
        if entries.count >= Self.limit { entries.removeAll() }
        entries[key] = Entry(path: path, expiry: expiry, changes: changes)
    }

    /// The account is about to change (stored, deleted) or its read failed: search next time.
    mutating func forget(_ key: Key) {
        entries[key] = nil
    }

    /// The connection was dropped: every path may mean something else on the next one.
    mutating func forgetAll() {
        entries.removeAll()
    }
}
#endif
