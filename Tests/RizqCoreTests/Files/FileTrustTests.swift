import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// FileTrust's table (its doc comment), row by row, on real files and folders: who may own them,
/// which modes each rule refuses, the sticky bit, and the words of each refusal.
final class FileTrustTests: XCTestCase {
    private let rules: [(name: String, trust: FileTrust)] = [
        ("settings", .settings("file")), ("configuration", .configuration("file")), ("secret", .secret("file")),
        ("hostProvided", .hostProvided("file")), ("input", .input("file")),
    ]

    /// Each rule against files of each mode: `nil` where it accepts, the refusal where it does not.
    func testEachRuleRefusesTheModesItsTableSays() {
        let folder = ScratchFolder()
        // mode: settings, configuration, secret, hostProvided, input ("-" accepts; "w" any user
        // can write it; "g" its group can write it; "r" other users can read it).
        let table: [(mode: mode_t, verdicts: String)] = [
            (0o600, "-----"), (0o400, "-----"), (0o640, "--r--"), (0o644, "--r--"), (0o444, "--r--"),
            (0o660, "-ggg-"), (0o620, "-ggg-"), (0o602, "wwww-"), (0o666, "wwww-"),
        ]
        for (index, row) in table.enumerated() {
            let path = folder.write("file\(index)", "x", mode: row.mode)
            let info = fileInfo(path)
            for (column, rule) in rules.enumerated() {
                let verdict = Array(row.verdicts)[column]
                let problem = rule.trust.problem(with: info)
                switch verdict {
                case "-": XCTAssertNil(problem, "\(rule.name) on mode \(String(row.mode, radix: 8))")
                case "w": XCTAssertEqual(problem, .tooOpen(mode: UInt32(info.st_mode), what: "any user can write it", fix: "make it yours alone (chmod o-w '%PATH%')"))
                case "g": XCTAssertEqual(problem, .tooOpen(mode: UInt32(info.st_mode), what: "its group can write it", fix: "make it yours alone (chmod g-w,o-w '%PATH%')"))
                default: XCTAssertEqual(problem, .tooOpen(mode: UInt32(info.st_mode), what: "other users can read it", fix: "make it private (chmod 600 '%PATH%')"), "\(rule.name) \(String(row.mode, radix: 8))")
                }
            }
        }
    }

    /// Every rule wants a regular file (or a folder, for folders): whatever else is there is
    /// named in the refusal.
    func testEveryRuleRefusesWhatIsNotTheKindItWants() {
        let folder = ScratchFolder()
        let fifo = folder.file("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let inner = folder.folder("inner")
        let file = folder.write("file", "x")
        let socketPath = folder.file("socket")
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (offset, byte) in socketPath.utf8.enumerated() { raw[offset] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        for rule in rules {
            XCTAssertEqual(rule.trust.problem(with: fileInfo(fifo)), .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"))
            XCTAssertEqual(rule.trust.problem(with: fileInfo(socketPath)), .wrongKind(found: "a socket", expected: "a regular file"))
            XCTAssertEqual(rule.trust.problem(with: fileInfo(inner)), .wrongKind(found: "a folder", expected: "a regular file"))
            XCTAssertEqual(rule.trust.problem(with: fileInfo(file), expectsFolder: true), .wrongKind(found: "a regular file", expected: "a folder"))
            XCTAssertEqual(rule.trust.problem(with: fileInfo("/dev/null")), .wrongKind(found: "a character device", expected: "a regular file"))
        }
    }

    /// A folder others can write is refused unless it has the sticky bit (/tmp): there no one can
    /// replace another user's file, and each file is judged by its own owner. A group-writable
    /// folder is the settings rule's to accept, and the stricter rules' to refuse.
    func testFoldersOthersCanWriteNeedTheStickyBitAndGroupWritableOnesPassOnlySettings() {
        let folder = ScratchFolder()
        let open = folder.folder("open", mode: 0o777)
        let sticky = folder.folder("sticky", mode: 0o1777)
        let group = folder.folder("group", mode: 0o770)
        for rule in rules where rule.name != "input" {
            XCTAssertEqual(rule.trust.problem(with: fileInfo(open), expectsFolder: true),
                           .tooOpen(mode: UInt32(S_IFDIR) | 0o777, what: "any user can write it", fix: "make it yours alone (chmod o-w '%PATH%')"), rule.name)
            if rule.name == "secret" {
                // Issue 50, item 10: a secret's folder others can write is refused, sticky or not.
                XCTAssertEqual(rule.trust.problem(with: fileInfo(sticky), expectsFolder: true),
                               .tooOpen(mode: UInt32(S_IFDIR) | 0o1777, what: "any user can write it", fix: "make it yours alone (chmod o-w '%PATH%')"), rule.name)
            } else {
                XCTAssertNil(rule.trust.problem(with: fileInfo(sticky), expectsFolder: true), rule.name)
            }
        }
        XCTAssertNil(FileTrust.settings("folder").problem(with: fileInfo(group), expectsFolder: true))
        XCTAssertNil(FileTrust.secret("folder").problem(with: fileInfo(folder.path), expectsFolder: true), "0755: a folder's read bits are not a secret's")
        for trust in [FileTrust.configuration("folder"), .secret("folder"), .hostProvided("folder")] {
            XCTAssertEqual(trust.problem(with: fileInfo(group), expectsFolder: true),
                           .tooOpen(mode: UInt32(S_IFDIR) | 0o770, what: "its group can write it", fix: "make it yours alone (chmod g-w,o-w '%PATH%')"))
        }
    }

    /// Owners, seen from root (as CI runs): root accepts any owner for settings only; the rules
    /// that name owners refuse another user; input takes anyone's.
    func testRootAcceptsAnotherUsersFileOnlyUnderTheSettingsRule() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        let folder = ScratchFolder()
        let theirs = folder.write("theirs", "x")
        XCTAssertEqual(chown(theirs, 65534, 65534), 0)
        let info = fileInfo(theirs)
        XCTAssertNil(FileTrust.settings("file").problem(with: info))
        XCTAssertNil(FileTrust.input("file").problem(with: info))
        for trust in [FileTrust.configuration("file"), .secret("file"), .hostProvided("file")] {
            XCTAssertEqual(trust.problem(with: info), .foreignOwner(owner: 65534, user: 0))
        }
    }

    /// Owners, seen from a user who is not root (nobody, in a child): root's files are trusted,
    /// a third user's folder is not, whatever its mode.
    func testAUserWhoIsNotRootTrustsRootButNotAThirdUser() throws {
        let folder = ScratchFolder()
        let roots = folder.folder("roots", mode: 0o755)
        let third = folder.folder("third", mode: 0o755)
        try XCTSkipIf(geteuid() != 0, "needs root, to give a folder to another user")
        XCTAssertEqual(chown(third, 65533, 65533), 0)
        XCTAssertEqual(try FilesChild.run(["folder", "configuration", roots], as: "nobody").lines, ["folder", "done"])
        let refused = try FilesChild.run(["folder", "settings", third], as: "nobody")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.lines.first?.hasPrefix("error cannot inspect the file \(third): it belongs to user 65533 (no name)"), true, "\(refused.lines)")
    }

    func testTheFixNamesThePathAndFollowingChangesOnlyTheLinks() {
        let error = FileError(
            path: "/x/config", operation: .read,
            problem: .tooOpen(mode: 0o100620, what: "its group can write it", fix: "make it yours alone (chmod g-w,o-w '%PATH%')"),
            subject: "secrets config file")
        XCTAssertEqual(error.description, "cannot read the secrets config file /x/config: it has mode 620, so its group can write it; make it yours alone (chmod g-w,o-w '/x/config')")
        XCTAssertEqual(error.finding.fix, "make it yours alone (chmod g-w,o-w '/x/config')")
        var followed = FileTrust.secret("key file").following(true)
        XCTAssertTrue(followed.followsLinks)
        followed.followsLinks = false
        XCTAssertEqual(followed, .secret("key file"))
    }
}
