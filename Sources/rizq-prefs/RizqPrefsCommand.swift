import ArgumentParser

@main
struct RizqPrefsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rizq-prefs")
}
