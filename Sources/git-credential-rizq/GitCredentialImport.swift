#if CLI
import Foundation
import RizqSecrets

/// `git-credential-rizq import [--dry-run] [FILE]`: the passwords git's `credential-store` keeps in
/// plain text (`~/.git-credentials`, else `$XDG_CONFIG_HOME/git/credentials`), one URL a line
/// (`https://user:password@host[:port][/path]`, percent-encoded), stored on the chain — or, with
/// `--dry-run`, only listed. Each credential is printed as its place and user, never its
/// password; a line that is not such a URL is reported by number and left out. The file is not
/// changed: the last line says how to remove it once git works with the new helper.
struct GitCredentialImport {
    /// The largest file read (16 MiB: a credential-store file holds a line per host).
    static let maximumFile = 16 << 20

    /// The file `credential-store` reads first, as git looks for it.
    static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let primary = home + "/.git-credentials"
        if FileManager.default.fileExists(atPath: primary) { return primary }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        return config + "/git/credentials"
    }

    /// What one line of the file gave: a credential, or why the line was left out.
    enum Line {
        case credential(NetworkCredential)
        case skipped(String)
    }

    /// The lines of `text`, each read as credential-store writes it.
    static func read(_ text: String) -> [Line] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw in
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { return nil }
            guard let url = URLComponents(string: line), url.user != nil, url.password != nil, !(url.host ?? "").isEmpty else {
                return .skipped("line \(index + 1) is not a URL with a user name and password (scheme://user:password@host/…)")
            }
            guard let credential = NetworkCredential(url: url, keepingUserInfo: true) else {
                return .skipped("line \(index + 1) has a port that is not from 1 to 65535")
            }
            return .credential(credential)
        }
    }

    /// `message` on standard error (what went wrong; the listing stays on standard output).
    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Reads `file`, stores what it holds in `store` (unless `dryRun`), and prints what it did.
    static func run(file: String, dryRun: Bool, store: NetworkCredentialStore) -> Int32 {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            complain("git-credential-rizq: cannot read \(file); give the credential-store file to import (git config credential.helper 'store --file=…' names it)")
            return 1
        }
        defer { try? handle.close() }
        guard var data = try? handle.read(upToCount: maximumFile + 1), data.count <= maximumFile else {
            complain("git-credential-rizq: \(file) is over \(maximumFile >> 20) MiB or cannot be read; a credential-store file holds a line per host")
            return 1
        }
        defer { data.resetBytes(in: 0..<data.count) }
        var stored = 0
        var skipped = 0
        for line in read(String(decoding: data, as: UTF8.self)) {
            switch line {
            case .skipped(let reason):
                skipped += 1
                print("skipped: \(reason)")
            case .credential(let credential):
                let name = "\(credential.protocol)://\(credential.username ?? "")@\(credential.host ?? "")\(credential.port.map { ":\($0)" } ?? "")/\(credential.path ?? "")"
                if dryRun {
                    print("would import \(name)")
                    stored += 1
                    continue
                }
                do throws(SecretError) {
                    try store.store(credential)
                    print("imported \(name)")
                    stored += 1
                } catch {
                    complain("git-credential-rizq: could not store \(name): \(error.description); nothing after it was imported")
                    return 1
                }
            }
        }
        let verb = dryRun ? "would import" : "imported"
        print("\(verb) \(stored) credential\(stored == 1 ? "" : "s") from \(file), skipped \(skipped) line\(skipped == 1 ? "" : "s")")
        if !dryRun && stored > 0 {
            print("\(file) still holds them in plain text: once 'git config --global credential.helper rizq' works, remove it (shred -u \(file)) and the 'store' helper")
        }
        return 0
    }
}
#endif
