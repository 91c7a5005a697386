#if CLI
import ArgumentParser
import Foundation
import RizqCommandLine
import RizqSecrets

/// `secret set`'s `--expires` and `--refresh-token-file`: the secret's lifetime
/// (`SecretLifetime`). The refresh token is read from a file, never taken from the command line,
/// where other users' `ps` would see it.
struct SecretLifetimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "When the secret stops being served: an ISO 8601 time with its zone (2027-01-31T12:00:00Z), @UNIX-SECONDS, or +SECONDS from now.",
        valueName: "time"))
    var expires: String?

    @Option(help: ArgumentHelp("A file holding the refresh token that renews the secret (kept encrypted beside it; one trailing newline is dropped).", valueName: "file"))
    var refreshTokenFile: String?

    /// The largest refresh-token file read.
    static let maximumFileSize = SecretLifetime.maximumRefreshTokenSize + 1

    /// The lifetime these options give; `nil` when they give none.
    func lifetime(now: Date = Date()) throws(CLIError) -> SecretLifetime? {
        var lifetime = SecretLifetime()
        if let expires { lifetime.expires = try Self.parseTime(expires, now: now) }
        if let refreshTokenFile { lifetime.refreshToken = try Self.readToken(refreshTokenFile) }
        if let problem = lifetime.problem { throw CLIError(.usage, "\(problem) (--refresh-token-file \(refreshTokenFile ?? "")); nothing was stored") }
        return lifetime.isEmpty ? nil : lifetime
    }

    /// `text` as a time: ISO 8601 with a zone, `@` and Unix seconds, or `+` and seconds from `now`.
    static func parseTime(_ text: String, now: Date) throws(CLIError) -> Date {
        let refused = CLIError(.usage, "--expires '\(text)' is not a time; give an ISO 8601 time with its zone (2027-01-31T12:00:00Z), @ and Unix seconds (@1800000000), or + and seconds from now (+3600)")
        if let first = text.first, first == "@" || first == "+" {
            let digits = text.dropFirst()
            guard !digits.isEmpty, digits.count <= 11, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Double(digits) else { throw refused }
            let date = first == "@" ? Date(timeIntervalSince1970: seconds) : now.addingTimeInterval(seconds)
            guard date.timeIntervalSince1970 <= 253_402_300_799 else { throw refused }
            return date
        }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        throw refused
    }

    /// The refresh token in `path`: bounded, UTF-8, one trailing newline dropped.
    static func readToken(_ path: String) throws(CLIError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError(.usage, "cannot read the refresh token file '\(path)' (missing or not readable); nothing was stored")
        }
        defer { try? handle.close() }
        guard var data = try? handle.read(upToCount: maximumFileSize) else {
            throw CLIError(.usage, "cannot read the refresh token file '\(path)'; nothing was stored")
        }
        defer { data.resetBytes(in: 0..<data.count) }
        if data.count >= maximumFileSize {
            throw CLIError(.usage, "the refresh token file '\(path)' is larger than \(SecretLifetime.maximumRefreshTokenSize >> 10) KiB, which no refresh token is; nothing was stored")
        }
        if data.last == 0x0A { data.removeLast() }
        guard let token = String(data: data, encoding: .utf8), !token.isEmpty else {
            throw CLIError(.usage, "the refresh token file '\(path)' is empty or not UTF-8 text; nothing was stored")
        }
        return token
    }

    /// `date` as `secret list --long` and messages show it: ISO 8601 in UTC, whole seconds.
    static func shown(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
#endif
