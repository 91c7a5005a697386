#if Fleet
import RizqCore
import RizqPrefs

/// The engine a fleet suite runs on: where every write is decided, and where every host catches
/// up from. ``PostgresFleetEngine`` is the one this package ships; another engine (etcd, say)
/// plugs in behind the same few calls — the article "A fleet of servers" says how.
///
/// What an engine promises, and what ``FleetSuite`` relies on:
///
/// - **One decision per write.** ``write(_:suite:)`` applies a change only when its stamp is
///   newer than the stamp the key holds (deletes included: a deletion is a tombstone with its
///   stamp), and says which happened. Two writes to one key are decided in one order, by the
///   engine, whatever the hosts' clocks say.
/// - **A revision per suite, in commit order.** Each applied write gets the suite's next
///   revision, and a reader never sees revision *n + 1* committed while *n* is not: a host that
///   has read everything up to *n* misses nothing by reading what is above *n* next.
/// - **Notifications are hints.** ``listen(suite:onReady:onNotify:)`` may lose some (PostgreSQL's
///   `NOTIFY` has no replay): a fleet suite catches up by revision after every reconnect and
///   after any notification that does not directly follow the last revision it has read, so a
///   lost one only delays a change until the next.
/// - **Deadlines.** Every call returns or throws ``FleetError/engineUnavailable(endpoint:reason:)``
///   within its deadline, even when the engine's host is gone without a word.
public protocol FleetEngine: Sendable {
    /// Where the engine is, for messages and logs: `host:port/database`, never a password.
    var endpointDescription: String { get }

    /// Makes the engine ready for `suite`: creates what it stores suites in, if missing (safe
    /// to call from many hosts at once), and registers the suite.
    func prepare(suite: String) async throws(FleetError) -> FleetSuiteHead

    /// Decides `change` in one step: applied (with the suite's next revision) when its stamp is
    /// newer than the key's, superseded otherwise.
    func write(_ change: FleetChange, suite: String) async throws(FleetError) -> FleetWriteDecision

    /// The keys changed after `revision`, in revision order, at most `limit` rows of them. A row
    /// the engine holds but cannot read (a value that is not JSON, written by hand) is reported
    /// in ``FleetChangeBatch/unreadable``, never dropped without a word, so that a reader
    /// advances past it.
    func changes(suite: String, after revision: Int64, limit: Int) async throws(FleetError) -> FleetChangeBatch

    /// Listens for the suite's notifications until the task is cancelled (then it returns) or
    /// the connection is lost (then it throws): `onReady` once listening, then `onNotify` with
    /// each notification.
    func listen(
        suite: String,
        onReady: @escaping @Sendable () async -> Void,
        onNotify: @escaping @Sendable (FleetNotice) async -> Void
    ) async throws(FleetError)

    /// Removes the suite's tombstones older than `age`, and records the highest revision
    /// removed so that a host that has not caught up that far reads the suite whole.
    /// - Returns: how many tombstones were removed.
    func purgeTombstones(suite: String, olderThan age: Duration) async throws(FleetError) -> Int

    /// Closes the engine's connections; calls after this fail.
    func shutdown() async
}

/// A suite as the engine holds it now.
public struct FleetSuiteHead: Sendable, Equatable {
    /// Names this incarnation of the suite in this engine: a cache built against another (the
    /// suite dropped and made again, another database) is read again whole.
    public var epoch: String
    /// The suite's latest revision.
    public var revision: Int64
    /// The highest revision whose tombstone was removed (0: none): a host that has seen less
    /// reads the suite whole.
    public var purgedThrough: Int64

    /// A head with these parts.
    public init(epoch: String, revision: Int64, purgedThrough: Int64) {
        self.epoch = epoch
        self.revision = revision
        self.purgedThrough = purgedThrough
    }
}

/// One change of one key, as a host sends it to the engine.
public struct FleetChange: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The new value; `nil` deletes the key (a tombstone).
    public var value: PrefValue?
    /// When and where the change was made: the engine applies it only over an older stamp.
    public var stamp: ChangeStamp

    /// A change with these parts.
    public init(key: String, value: PrefValue?, stamp: ChangeStamp) {
        self.key = key
        self.value = value
        self.stamp = stamp
    }
}

/// One key as the engine holds it, with the revision of the write that set it.
public struct FleetEntry: Sendable, Equatable {
    /// The key, its value (`nil`: deleted) and its stamp.
    public var change: FleetChange
    /// The suite's revision when this value was written.
    public var revision: Int64

    /// An entry with these parts.
    public init(change: FleetChange, revision: Int64) {
        self.change = change
        self.revision = revision
    }
}

/// What the engine decided about one write.
public enum FleetWriteDecision: Sendable, Equatable {
    /// Applied, as the suite's revision `revision`.
    case applied(revision: Int64)
    /// Not applied: the key already holds a newer change, stamped `winner`.
    case superseded(by: ChangeStamp)
}

/// A page of changes, in revision order, and the suite's head when it was read.
public struct FleetChangeBatch: Sendable, Equatable {
    /// The changes, lowest revision first.
    public var entries: [FleetEntry]
    /// The suite's head when the page was read.
    public var head: FleetSuiteHead
    /// Whether more changes follow the last row of the page (the page was full).
    public var hasMore: Bool
    /// The rows of the page the engine could not read, lowest revision first: skipped, and
    /// reported, never guessed at.
    public var unreadable: [FleetUnreadableRow]

    /// A page with these parts.
    public init(entries: [FleetEntry], head: FleetSuiteHead, hasMore: Bool, unreadable: [FleetUnreadableRow] = []) {
        self.entries = entries
        self.head = head
        self.hasMore = hasMore
        self.unreadable = unreadable
    }

    /// The highest revision the page read, readable or not; `nil` for an empty page. A reader
    /// continues above it (never above ``FleetChangeBatch/entries`` only: a page of rows that
    /// cannot be read would be read again for ever).
    public var lastRevision: Int64? {
        switch (entries.last?.revision, unreadable.last?.revision) {
        case (let entry?, let row?): return max(entry, row)
        case (let entry?, nil): return entry
        case (nil, let row?): return row
        case (nil, nil): return nil
        }
    }
}

/// A row of a fleet suite that the engine holds but cannot read: its value is not JSON (a row
/// written by hand, a tool that wrote another format). Its key and revision, never its value.
public struct FleetUnreadableRow: Sendable, Equatable {
    /// The row's key.
    public var key: String
    /// The revision of the row's write.
    public var revision: Int64
    /// Why it cannot be read.
    public var reason: String

    /// A row with these parts.
    public init(key: String, revision: Int64, reason: String) {
        self.key = key
        self.revision = revision
        self.reason = reason
    }
}

/// One notification: the revision of the write it announces, and the write itself when it was
/// small enough to travel with it (a host that has read up to the revision before applies it
/// without a read; any other host catches up by revision).
public struct FleetNotice: Sendable, Equatable {
    /// The revision announced; `nil` when the notification names none.
    public var revision: Int64?
    /// The write, when the notification carries it.
    public var entry: FleetEntry?

    /// A notice with these parts.
    public init(revision: Int64?, entry: FleetEntry? = nil) {
        self.revision = revision
        self.entry = entry
    }
}
#endif
