/// When the user likes to be reminded.
enum TimeSlot: String, Codable, Sendable, CaseIterable {
    case morning, afternoon, evening, night
}

/// The seed app's Codable preferences struct.
struct UserPreferences: Codable, Equatable, Sendable {
    var notificationsEnabled: Bool = true
    var hapticsEnabled: Bool = true
    var dailyGoal: Int = 3
    var preferredTimeSlots: [TimeSlot] = [.morning, .evening]
}
