#if Fleet
import PostgresNIO

/// The engine's own statements, for `Benchmarks/` only (issue 39): the `fleet-set` workload's
/// second floor runs the committed write's statement bare on a postgres-nio connection —
/// prepared once, one round trip per write, no cache, no listener — so that the benchmark
/// measures the statement every committed set must send, written in one place
/// (``PostgresFleetSQL``) and not copied into the benchmark.
///
/// Not part of the library's interface: `@_spi(Benchmarks)`, and free to change with the SQL.
@_spi(Benchmarks) public enum FleetBenchmarkStatements {
    /// Registers `suite` if new (the write statement writes nothing for a suite without its
    /// row), as ``PostgresFleetEngine`` does when a suite is opened.
    public static func registerSuite(_ suite: String) -> PostgresQuery {
        PostgresFleetSQL.registerSuite(suite)
    }

    /// The committed write of `valueJSON` (`nil`: a tombstone) under `key` of `suite`, with the
    /// change stamp `(milliseconds, counter, origin)`: the same prepared statement, with the
    /// same bindings, that every ``FleetSuite`` write sends. Its one row is the key's row as
    /// the statement leaves it.
    public static func write(
        suite: String, key: String, valueJSON: String?, stamp: (milliseconds: Int64, counter: Int64, origin: String),
        lockTimeoutMilliseconds: Int64
    ) -> some PostgresPreparedStatement {
        PostgresFleetSQL.Write(
            suite: suite, key: key, value: valueJSON, stamp: stamp, lockTimeoutMilliseconds: lockTimeoutMilliseconds,
            maximumOffsetMilliseconds: PostgresFleetEngine.maximumOffsetMilliseconds)
    }
}
#endif
