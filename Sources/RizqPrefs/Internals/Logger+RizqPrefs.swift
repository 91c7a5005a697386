import Logging

extension Logger {
    /// What RizqPrefs logs: damaged files moved aside, writes that failed in the background,
    /// values refused by the non-throwing setters. The label is `RizqPrefs`.
    static let rizqPrefs = Logger(label: "RizqPrefs")
}
