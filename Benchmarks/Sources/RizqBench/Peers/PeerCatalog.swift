import Foundation

/// Every peer a workload runs in a process of its own (``PeerProcess``): how the peer's process
/// sets it up and what one sample is. Each workload keeps its peers' code beside its own.
enum PeerCatalog {
    /// The peer `peer` of `workload` at `size`, set up in this process: a call is one sample,
    /// its line the figure (nanoseconds, as the workload reports) or, for `cross-process`,
    /// "MEDIAN P99 LOST".
    static func sampler(workload: String, size: Int, peer: String, home: BenchHome, options: Options) throws -> () throws -> String {
        if peer == "gsettings" { try GSettingsPeer.checkBackend() }
        let figure: () throws -> Double
        switch (workload, peer) {
        case ("get", "foundation"): figure = try GetWorkload.foundationPeer(home: home, size: size, options: options)
        case ("get", "gsettings"): figure = try GetWorkload.gsettingsPeer(home: home, size: size, options: options)
        case ("set", "foundation"): figure = try SetWorkload.foundationPeer(home: home, size: size, options: options)
        case ("set", "gsettings"): figure = try SetWorkload.gsettingsPeer(home: home, size: size, options: options)
        case ("set-memory", "foundation"): figure = try SetMemoryWorkload.foundationPeer(home: home, size: size, options: options)
        case ("set-memory", "gsettings"): figure = try SetMemoryWorkload.gsettingsPeer(home: home, size: size, options: options)
        case ("set-durable", "foundation"): figure = try SetDurableWorkload.foundationPeer(home: home, size: size, options: options)
        case ("set-durable", "gsettings"): figure = try SetDurableWorkload.gsettingsPeer(home: home, size: size, options: options)
        case ("flush", "foundation"): figure = try FlushWorkload.foundationPeer(home: home, size: size, options: options)
        case ("open", "foundation"): figure = try OpenWorkload.foundationPeer(home: home, size: size, options: options)
        case ("migrate", "foundation"): figure = try MigrateWorkload.foundationPeer(home: home, size: size, options: options)
        case ("bulk", "foundation"): figure = try BulkWorkload.foundationPeer(home: home, size: size, options: options)
        case ("bulk", "gsettings"): figure = try BulkWorkload.gsettingsPeer(home: home, size: size, options: options)
        case ("codable", "foundation"): figure = try CodableWorkload.foundationPeer(home: home, options: options)
        case ("cross-process", "gsettings"): return try CrossProcessWorkload.gsettingsPeer(options: options)
        default: throw BenchError("no peer '\(peer)' for the workload '\(workload)'")
        }
        return { String(try figure()) }
    }
}
