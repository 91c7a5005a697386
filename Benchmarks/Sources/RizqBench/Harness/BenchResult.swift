/// One row of the report: our figure for one workload at one size, beside the physical floors
/// and the peers measured in the same run.
///
/// Two kinds of ratio, each oriented so that the figure reads naturally:
/// - against a floor, `ours / floor`: lower is better, 1.0 is the limit (`floor_ratio`);
/// - against a peer, `peer / ours`: how many times faster we are (`ratio`); below 1, the peer
///   is faster.
struct BenchResult: Encodable {
    /// One other figure measured beside ours: a floor or a peer.
    struct Figure: Encodable {
        var name: String
        var ns: Double
        /// `ours / floor` for a floor, `peer / ours` for a peer.
        var ratio: Double
        /// The 99th percentile, where the row reports one (cross-process delivery).
        var p99Ns: Double?
        /// Why a peer has no figure at this size (then `ns` and `ratio` are 0).
        var missing: String?
        /// Why a peer that was run has no figure: it failed (its process died, a call of it
        /// threw), in a process of its own, the rest of the row measured (then `ns` and `ratio`
        /// are 0).
        var failed: String?
        /// Changes that never arrived (cross-process delivery).
        var lost: Int?

        enum CodingKeys: String, CodingKey {
            case name, ns, ratio, missing, failed, lost
            case p99Ns = "p99_ns"
        }
    }

    var workload: String
    var size: Int
    var oursNs: Double
    /// What the figures count: "ns/op" (the default), "ns" for a whole run, "bytes" for memory.
    var unit: String
    /// The 99th percentile of ours, where the row reports one.
    var oursP99Ns: Double?
    /// Changes of ours that never arrived (cross-process delivery).
    var lost: Int?
    /// Every floor measured for this row; the first is *the* floor (`floor`, `floor_ns`).
    var floors: [Figure] = []
    /// Every peer measured for this row, in the report's order.
    var peers: [Figure] = []

    init(workload: String, size: Int, ours: Double, unit: String = "ns/op", oursP99: Double? = nil) {
        self.workload = workload
        self.size = size
        self.oursNs = ours
        self.unit = unit
        self.oursP99Ns = oursP99
    }

    /// Adds a floor: `ns` is what the bare operation costs.
    mutating func floor(_ name: String, _ ns: Double) {
        guard !ns.isNaN else { return }  // not measured (--ours-only)
        floors.append(Figure(name: name, ns: ns, ratio: oursNs / ns))
    }

    /// Adds a peer: `ns` is what the peer takes for the same work.
    mutating func peer(_ name: String, _ ns: Double, p99: Double? = nil, lost: Int? = nil) {
        guard !ns.isNaN else { return }  // not measured (--ours-only)
        peers.append(Figure(name: name, ns: ns, ratio: ns / oursNs, p99Ns: p99, lost: lost))
    }

    /// Records that a peer could not be measured at this size, and why.
    mutating func peer(_ name: String, missing reason: String) {
        peers.append(Figure(name: name, ns: 0, ratio: 0, missing: reason))
    }

    /// Records that a peer was run and failed, and why.
    mutating func peer(_ name: String, failed reason: String) {
        peers.append(Figure(name: name, ns: 0, ratio: 0, failed: reason))
    }

    /// Adds the peer a sampler measured as `contender`: its median, or why it failed.
    mutating func peer(_ name: String, _ contender: String, in medians: Medians) {
        if let reason = medians.failures[contender] {
            peer(name, failed: reason)
        } else {
            peer(name, medians.of(contender))
        }
    }

    enum CodingKeys: String, CodingKey {
        case workload, size, unit, floor, floors, peers, baseline, ratio, lost
        case oursNs = "ours_ns"
        case oursP99Ns = "ours_p99_ns"
        case floorNs = "floor_ns"
        case floorRatio = "floor_ratio"
        case baselineNs = "baseline_ns"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(workload, forKey: .workload)
        try container.encode(size, forKey: .size)
        try container.encode(unit, forKey: .unit)
        try container.encode(oursNs, forKey: .oursNs)
        try container.encodeIfPresent(oursP99Ns, forKey: .oursP99Ns)
        try container.encodeIfPresent(lost, forKey: .lost)
        try container.encodeIfPresent(floors.first?.name, forKey: .floor)
        try container.encodeIfPresent(floors.first?.ns, forKey: .floorNs)
        try container.encodeIfPresent(floors.first?.ratio, forKey: .floorRatio)
        try container.encode(floors, forKey: .floors)
        try container.encode(peers, forKey: .peers)
        // The first measured peer under the names of the first report (issue 7), for older readers.
        let first = peers.first { $0.missing == nil && $0.failed == nil }
        try container.encodeIfPresent(first?.name, forKey: .baseline)
        try container.encodeIfPresent(first?.ns, forKey: .baselineNs)
        try container.encodeIfPresent(first?.ratio, forKey: .ratio)
    }
}
