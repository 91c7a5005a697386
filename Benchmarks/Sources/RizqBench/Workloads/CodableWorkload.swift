import Foundation
import RizqPrefs

/// A ten-field settings struct, as apps keep in one key.
struct BenchProfile: Codable, Sendable, Equatable {
    var id = 1
    var name = "Aisha"
    var email = "aisha@example.com"
    var dailyGoal = 3
    var streak = 0
    var xp = 0
    var level = 1
    var notificationsEnabled = true
    var hapticsEnabled = true
    var theme = "system"
}

/// `codable`: one get and one set of a `Codable` struct. Ours: `CodableUserDefault`'s key;
/// Foundation: JSON-encoded `Data`, as the seed app stores it.
enum CodableWorkload {
    static func run(home: BenchHome, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "codable", size: 100)
        @CodableUserDefault("profile", defaultValue: BenchProfile(), store: fixture.ours) var profile
        let pairs = options.codablePairs
        var contenders = [
            Contender("ours") {
                elapsedNanoseconds {
                    for step in 0..<pairs {
                        var value = profile
                        value.streak = step
                        profile = value
                    }
                } / Double(pairs)
            },
        ]
        if let foundation = options.peerProcess("codable", size: 10, peer: "foundation", home: home) {
            contenders.append(.peer("foundation", foundation))
        }
        let medians = try options.sampler.medians(contenders)
        var result = BenchResult(workload: "codable", size: 10, ours: medians.of("ours"))
        result.peer("Foundation.UserDefaults+JSONEncoder", "foundation", in: medians)
        return result
    }

    /// The Foundation peer, in its process: the struct as JSON-encoded `Data`, read and written.
    static func foundationPeer(home: BenchHome, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "codable", size: 100)
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        fixture.defaults.set(try encoder.encode(BenchProfile()), forKey: "profile")
        let pairs = options.codablePairs
        return {
            try elapsedNanoseconds {
                for step in 0..<pairs {
                    var value = try fixture.defaults.data(forKey: "profile").map { try decoder.decode(BenchProfile.self, from: $0) } ?? BenchProfile()
                    value.streak = step
                    fixture.defaults.set(try encoder.encode(value), forKey: "profile")
                }
            } / Double(pairs)
        }
    }
}
