/// The memory floors under `get` and `set`, over the same keys and the same scattered walk as
/// the workload: a plain `Dictionary<String, Int>` (what Swift gives for free), and a bare read
/// of one cache line per key (what the memory itself costs once the key's slot is known).
final class MemoryFloor {
    private var dictionary: [String: Int]
    private let lines: UnsafeMutableRawPointer
    private let fixture: Fixture

    static let lineSize = 64

    init(fixture: Fixture) {
        self.fixture = fixture
        dictionary = Dictionary(uniqueKeysWithValues: fixture.keys.enumerated().map { ($0.element, $0.offset) })
        lines = UnsafeMutableRawPointer.allocate(byteCount: fixture.keys.count * Self.lineSize, alignment: Self.lineSize)
        for index in fixture.keys.indices {
            lines.storeBytes(of: index, toByteOffset: index * Self.lineSize, as: Int.self)
        }
    }

    deinit { lines.deallocate() }

    /// Nanoseconds per `dictionary[key]` over `reads` steps of the walk.
    func dictionaryReads(_ reads: Int) -> Double {
        var sink = 0
        let elapsed = elapsedNanoseconds {
            for step in 0..<reads { sink &+= dictionary[fixture.key(step)] ?? 0 }
        }
        blackHole(sink)
        return elapsed / Double(reads)
    }

    /// Nanoseconds per read of the walk's next key's cache line (no key, no hash).
    func lineReads(_ reads: Int) -> Double {
        var sink = 0
        let elapsed = elapsedNanoseconds {
            for step in 0..<reads { sink &+= lines.load(fromByteOffset: fixture.index(step) * Self.lineSize, as: Int.self) }
        }
        blackHole(sink)
        return elapsed / Double(reads)
    }

    /// Nanoseconds per `dictionary[key] = value` over `writes` steps of the walk.
    func dictionaryWrites(_ writes: Int, round: Int) -> Double {
        elapsedNanoseconds {
            for step in 0..<writes { dictionary[fixture.key(step)] = step &+ round }
        } / Double(writes)
    }
}

/// Keeps a computed value alive, so that the optimizer cannot drop the loop that made it.
@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}
