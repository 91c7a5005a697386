import Foundation

/// When the user likes to be reminded.
enum TimeSlot: String, Codable, CaseIterable {
    case morning, afternoon, evening, night
}

/// The seed app's Codable preferences, as they were.
struct UserPreferences: Codable, Equatable {
    var notificationsEnabled: Bool = true
    var hapticsEnabled: Bool = true
    var dailyGoal: Int = 3
    var preferredTimeSlots: [TimeSlot] = [.morning, .evening]
}
