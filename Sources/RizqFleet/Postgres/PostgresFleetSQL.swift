#if Fleet
import PostgresNIO

/// Every statement a ``PostgresFleetEngine`` sends, in one place: the tables, the one-statement
/// write, the catch-up read, the tombstone purge.
///
/// Two tables. `rizq_fleet_suites` has one row per suite: its counter `revision`, the channel
/// number `id`, an `epoch` that names this incarnation of the suite, and `purged_through`.
/// `rizq_fleet_settings` has one row per key: the value (its JSON in the suite file's format;
/// `NULL` is a tombstone), the change stamp in three columns, and the revision of its write.
///
/// Why a counter row and not a sequence: a sequence hands out numbers when a statement runs, so
/// a transaction holding revision 7 can commit after one holding 8, and a host that read "up to
/// 8" would never read 7. Bumping the suite's row takes its row lock until commit: the next
/// writer of the suite waits, so the revisions of one suite commit in order, and "everything
/// above the last revision I read" misses nothing. Writes of one suite are serialised by that
/// lock — settings change seldom; writes of different suites do not wait for each other.
///
/// Text columns compared as stamps use `COLLATE "C"` (byte order), the order of
/// `ChangeStamp`'s origin comparison: a database whose default collation is a language's
/// would otherwise order origins differently from every host.
enum PostgresFleetSQL {
    /// Creates the tables and index if missing, under an advisory lock so that many hosts
    /// starting at once do not trip over each other (`CREATE TABLE IF NOT EXISTS` alone can
    /// fail with a unique violation in the catalog when two run together). One statement: the
    /// lock is held until it commits.
    static let createTables: PostgresQuery = """
        DO $rizq$
        BEGIN
            PERFORM pg_advisory_xact_lock(7234019852266512001);
            CREATE TABLE IF NOT EXISTS rizq_fleet_suites (
                suite text COLLATE "C" PRIMARY KEY,
                id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                epoch text NOT NULL DEFAULT gen_random_uuid()::text,
                revision bigint NOT NULL DEFAULT 0,
                purged_through bigint NOT NULL DEFAULT 0,
                created_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE IF NOT EXISTS rizq_fleet_settings (
                suite text COLLATE "C" NOT NULL REFERENCES rizq_fleet_suites (suite) ON DELETE CASCADE,
                key text COLLATE "C" NOT NULL,
                value text,
                stamp_ms bigint NOT NULL,
                stamp_counter bigint NOT NULL,
                stamp_origin text COLLATE "C" NOT NULL,
                revision bigint NOT NULL,
                changed_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (suite, key)
            );
            CREATE INDEX IF NOT EXISTS rizq_fleet_settings_revision ON rizq_fleet_settings (suite, revision);
        END
        $rizq$
        """

    /// Whether the tables are there (then set-up is one cheap read).
    static let tablesExist: PostgresQuery = "SELECT to_regclass('rizq_fleet_settings') IS NOT NULL AND to_regclass('rizq_fleet_suites') IS NOT NULL"

    /// Registers a suite if new; its head and channel number either way (zero rows when another
    /// host registered it in the same instant: ask again).
    static func registerSuite(_ suite: String) -> PostgresQuery {
        """
        WITH added AS (
            INSERT INTO rizq_fleet_suites (suite) VALUES (\(suite)) ON CONFLICT (suite) DO NOTHING
            RETURNING id, epoch, revision, purged_through
        )
        SELECT id, epoch, revision, purged_through FROM added
        UNION ALL
        SELECT id, epoch, revision, purged_through FROM rizq_fleet_suites WHERE suite = \(suite)
        """
    }

    /// Bytes of key, value and origin up to which a notification carries the write itself
    /// (`NOTIFY` payloads must stay under 8,000 bytes).
    static let notifiedEntryLimit = 7_000

    /// The write, decided in one statement, prepared once per connection (`Write`): take the
    /// suite's next revision (and its row lock, held to commit), insert the key's row or, when
    /// it is there, replace it only if the new stamp is greater than the stored one (`ON
    /// CONFLICT … DO UPDATE`, which PostgreSQL evaluates on the latest committed version of the
    /// row, locking it), and notify the suite's channel — delivered at commit, and only when
    /// the row was written — with the write itself as JSON (`{"r": revision, "k": key, "v":
    /// value, "m", "c", "o": the stamp}`) when it is small, else the bare revision.
    ///
    /// One row back, whatever the outcome: the key's row as the statement leaves it (its
    /// revision and stamp). The write's own stamp there means applied — by this statement, or
    /// by an earlier attempt of the same write whose answer was lost; another stamp is the
    /// later change that holds the key (this write was superseded; the revision it took is a
    /// gap, which readers skip). An older stamp never wins: the update keeps every column of
    /// the row as it was (`CASE`), so that the row holding the key is returned from the lock
    /// the statement took, never from its snapshot, which may predate the winner's commit. No
    /// row back: the suite is not registered (its row was removed).
    ///
    /// The wait for a lock is bounded on the server: before the suite's row is locked, the
    /// statement sets `lock_timeout` for its own transaction (`set_config(…, true)`, an
    /// uncorrelated sub-select, which PostgreSQL evaluates once before the scan that locks the
    /// row). A write that waits longer for a row another transaction holds (a person's open
    /// `SELECT … FOR UPDATE`, a stuck writer) is cancelled by the server itself, with SQLSTATE
    /// 55P03, and rolled back: it can never commit after the caller was told it failed, as a
    /// statement the client merely stopped waiting for could (the server finishes it once the
    /// lock goes). The lock time-out is below the call's deadline, so that the server's answer
    /// arrives first.
    ///
    /// Prepared (issue 39): the statement is parsed and planned once per connection, and each
    /// write is one Bind/Execute/Sync round trip carrying only its values — it used to be
    /// parsed and planned again for every write, several times the server time of the write
    /// itself.
    ///
    /// Stamps are bounded by the server's clock (issue 50): a write whose stamp is more than the
    /// maximum clock offset ($8 ms) ahead of the server's `clock_timestamp()` is refused by the
    /// statement itself — nothing is bumped or written, and the one row it returns says so
    /// (`refused_ahead`: how far ahead). A row already holding such a stamp (written before this
    /// bound, or by a host whose clock was years ahead) counts as older than any stamp within
    /// the bound, so the next ordinary write of the key replaces it: that is how an
    /// administrator repairs a frozen key (`rizq-prefs fleet set KEY VALUE` on a host whose clock
    /// is right).
    struct Write: PostgresPreparedStatement {
        /// The key's row after the write: its revision and stamp; or how far ahead of the
        /// server's clock the refused stamp was.
        enum Row: Sendable {
            case written(revision: Int64, stamp: (milliseconds: Int64, counter: Int64, origin: String))
            case refused(aheadMilliseconds: Int64)
            /// No suite row (removed by hand): nothing was written.
            case unregistered
        }

        /// Versioned: a connection never holds two statements under one name.
        static let name = "rizq_fleet_write_2"

        /// The server's clock, in milliseconds since 1970, and the latest stamp it takes.
        private static let serverNow = "(extract(epoch FROM clock_timestamp()) * 1000)::int8"
        private static let bound = "(\(serverNow) + $8::int8)"

        /// The stamp comparison, the same in every column of the update: newer, or the row's
        /// stamp is beyond the bound (a frozen key).
        private static let newer = "((excluded.stamp_ms, excluded.stamp_counter, excluded.stamp_origin) > (s.stamp_ms, s.stamp_counter, s.stamp_origin) OR s.stamp_ms > \(bound))"

        static let sql = """
            WITH bump AS (
                UPDATE rizq_fleet_suites SET revision = revision + 1
                WHERE suite = $1 AND (SELECT set_config('lock_timeout', $7, true)) IS NOT NULL AND $4::int8 <= \(bound)
                RETURNING id, revision
            ), upsert AS (
                INSERT INTO rizq_fleet_settings AS s (suite, key, value, stamp_ms, stamp_counter, stamp_origin, revision, changed_at)
                SELECT $1, $2, $3, $4, $5, $6, bump.revision, now() FROM bump
                ON CONFLICT (suite, key) DO UPDATE SET
                    value = CASE WHEN \(newer) THEN excluded.value ELSE s.value END,
                    stamp_ms = CASE WHEN \(newer) THEN excluded.stamp_ms ELSE s.stamp_ms END,
                    stamp_counter = CASE WHEN \(newer) THEN excluded.stamp_counter ELSE s.stamp_counter END,
                    stamp_origin = CASE WHEN \(newer) THEN excluded.stamp_origin ELSE s.stamp_origin END,
                    revision = CASE WHEN \(newer) THEN excluded.revision ELSE s.revision END,
                    changed_at = CASE WHEN \(newer) THEN excluded.changed_at ELSE s.changed_at END
                RETURNING revision, key, value, stamp_ms, stamp_counter, stamp_origin
            )
            SELECT written.revision, written.stamp_ms, written.stamp_counter, written.stamp_origin, written.notified,
                CASE WHEN $4::int8 > \(bound) THEN $4::int8 - \(serverNow) END AS refused_ahead
            FROM (SELECT 1) AS one LEFT JOIN (
                SELECT upsert.revision, upsert.stamp_ms, upsert.stamp_counter, upsert.stamp_origin,
                    CASE WHEN upsert.revision = bump.revision THEN pg_notify('rizq_fleet_' || bump.id,
                        CASE WHEN octet_length(upsert.key) + coalesce(octet_length(upsert.value), 0) + octet_length(upsert.stamp_origin) < \(PostgresFleetSQL.notifiedEntryLimit)
                             THEN json_build_object('r', upsert.revision, 'k', upsert.key, 'v', upsert.value,
                                                    'm', upsert.stamp_ms, 'c', upsert.stamp_counter, 'o', upsert.stamp_origin)::text
                             ELSE upsert.revision::text END)::text END AS notified
                FROM upsert CROSS JOIN bump
            ) AS written ON true
            """

        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .int8, .int8, .text, .text, .int8]

        var suite: String
        var key: String
        /// The value's JSON; `nil` for a tombstone.
        var value: String?
        var stamp: (milliseconds: Int64, counter: Int64, origin: String)
        var lockTimeoutMilliseconds: Int64
        /// The most a stamp may be ahead of the server's clock (the fleet's maximum clock offset).
        var maximumOffsetMilliseconds: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 8)
            bindings.append(suite)
            bindings.append(key)
            bindings.append(value)
            bindings.append(stamp.milliseconds)
            bindings.append(stamp.counter)
            bindings.append(stamp.origin)
            bindings.append(String(max(1, lockTimeoutMilliseconds)))
            bindings.append(maximumOffsetMilliseconds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let cells = row.makeRandomAccess()
            if let ahead = try cells[5].decode(Int64?.self) { return .refused(aheadMilliseconds: ahead) }
            guard let revision = try cells[0].decode(Int64?.self) else { return .unregistered }
            return .written(
                revision: revision,
                stamp: (try cells[1].decode(Int64.self), try cells[2].decode(Int64.self), try cells[3].decode(String.self)))
        }
    }

    /// The suite's channel number as the engine holds it now (no row: the suite is not
    /// registered). The listener's heartbeat: a suite registered again — its tables dropped and
    /// made again, its row removed — has a new number, and a listener still on the old channel
    /// would hear nothing.
    static func channel(_ suite: String) -> PostgresQuery {
        "SELECT id FROM rizq_fleet_suites WHERE suite = \(suite)"
    }

    /// The suite's head and the rows above `revision`, lowest first, in one snapshot (one row
    /// with empty entry columns when nothing is above it).
    static func changes(_ suite: String, after revision: Int64, limit: Int) -> PostgresQuery {
        """
        SELECT s.epoch, s.revision, s.purged_through,
               e.key, e.value, e.stamp_ms, e.stamp_counter, e.stamp_origin, e.revision
        FROM rizq_fleet_suites s
        LEFT JOIN LATERAL (
            SELECT key, value, stamp_ms, stamp_counter, stamp_origin, revision FROM rizq_fleet_settings
            WHERE suite = s.suite AND revision > \(revision)
            ORDER BY revision LIMIT \(Int64(limit))
        ) e ON true
        WHERE s.suite = \(suite)
        ORDER BY e.revision
        """
    }

    /// Deletes the suite's tombstones older than `seconds` (by the server's clock) and raises
    /// `purged_through` to the highest revision deleted, in one statement.
    static func purgeTombstones(_ suite: String, olderThanSeconds seconds: Double) -> PostgresQuery {
        """
        WITH gone AS (
            DELETE FROM rizq_fleet_settings
            WHERE suite = \(suite) AND value IS NULL AND changed_at < now() - make_interval(secs => \(seconds))
            RETURNING revision
        ), raised AS (
            UPDATE rizq_fleet_suites SET purged_through = GREATEST(purged_through, (SELECT max(revision) FROM gone))
            WHERE suite = \(suite) AND EXISTS (SELECT 1 FROM gone)
            RETURNING suite
        )
        SELECT count(*) FROM gone
        """
    }
}
#endif
