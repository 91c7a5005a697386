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
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        fixture.foundation.set(try encoder.encode(BenchProfile()), forKey: "profile")
        let pairs = options.codablePairs
        let medians = try options.sampler.medians([
            Contender("ours") {
                elapsedNanoseconds {
                    for step in 0..<pairs {
                        var value = profile
                        value.streak = step
                        profile = value
                    }
                } / Double(pairs)
            },
            Contender("foundation") {
                try elapsedNanoseconds {
                    for step in 0..<pairs {
                        var value = try fixture.foundation.data(forKey: "profile").map { try decoder.decode(BenchProfile.self, from: $0) } ?? BenchProfile()
                        value.streak = step
                        fixture.foundation.set(try encoder.encode(value), forKey: "profile")
                    }
                } / Double(pairs)
            },
        ])
        var result = BenchResult(workload: "codable", size: 10, ours: medians.of("ours"))
        result.peer("Foundation.UserDefaults+JSONEncoder", medians.of("foundation"))
        return result
    }
}
