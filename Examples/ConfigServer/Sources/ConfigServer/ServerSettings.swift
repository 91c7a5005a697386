import Configuration

/// What the server reads at start: each value from the first provider that has it, else the
/// default written here.
struct ServerSettings: CustomStringConvertible {
    var port: Int
    var host: String
    var timeout: Int
    var databasePassword: String?

    init(_ config: ConfigReader) {
        port = config.int(forKey: "http.port", default: 8080)
        host = config.string(forKey: "http.host", default: "127.0.0.1")
        timeout = config.int(forKey: "http.timeout", default: 30)
        // isSecret: the access log and any printed ConfigValue show <REDACTED>.
        databasePassword = config.string(forKey: "database.password", isSecret: true)
    }

    var description: String {
        let password = databasePassword.map { "set (\($0.count) characters, never printed)" } ?? "not set"
        return """
              http.host          \(host)
              http.port          \(port)
              http.timeout       \(timeout)
              database.password  \(password)
            """
    }
}
