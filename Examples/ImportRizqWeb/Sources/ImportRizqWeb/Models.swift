/// The RIZQ web app's `rizq_user_habits`, as its `useUserHabits` hook wrote it.
struct UserHabits: Codable, Equatable, Sendable {
    var activeJourneyIds: [Int] = []
    var customHabits: [CustomHabit] = []
    /// Day (`yyyy-MM-dd`) → the duas completed that day.
    var habitCompletions: [String: [Int]] = [:]
}

/// A habit the user added by hand.
struct CustomHabit: Codable, Equatable, Sendable {
    var id: String
    var duaId: Int
    var duaTitle: String
    var timeSlot: TimeSlot
    /// ISO 8601 text, as the web app's `new Date().toISOString()` wrote it.
    var addedAt: String
}

enum TimeSlot: String, Codable, Sendable {
    case morning, afternoon, evening, night
}

/// `rizq_user_profile`.
struct UserProfile: Codable, Equatable, Sendable {
    var id: String
    var displayName: String
    var streak: Int
    var totalXp: Int
    var level: Int
    var lastActiveDate: String
    var isAdmin: Bool
}

/// One day of `rizq_daily_activity`.
struct DailyActivity: Codable, Equatable, Sendable {
    var duasCompleted: [Int]
    var xpEarned: Int
}
