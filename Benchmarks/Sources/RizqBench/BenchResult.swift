/// One row of the report: `ratio` is baseline / ours, so higher is better for us.
struct BenchResult: Encodable {
    var workload: String
    var size: Int
    var oursNs: Double
    var baseline: String?
    var baselineNs: Double?
    var ratio: Double?
    /// What the figures count: "ns/op" (the default), "ns" for a whole run, "bytes" for memory.
    var unit: String

    init(workload: String, size: Int, ours: Double, baseline: String?, baselineValue: Double?, unit: String = "ns/op") {
        self.workload = workload
        self.size = size
        self.oursNs = ours
        self.baseline = baseline
        self.baselineNs = baselineValue
        self.ratio = baselineValue.map { $0 / ours }
        self.unit = unit
    }

    enum CodingKeys: String, CodingKey {
        case workload, size, baseline, ratio, unit
        case oursNs = "ours_ns"
        case baselineNs = "baseline_ns"
    }
}
