import Foundation
@testable import RizqCore
import XCTest

/// Issue 50, item 1, in the file layer: which folders a sandboxed app of this user can write
/// (``SandboxReach``), found by device and inode whatever the spelling, and where the host keeps
/// its trust base instead.
final class SandboxReachTests: XCTestCase {
    private var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "rizq-reach-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home + "/.config/rizq-prefs/groups", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/.config/rizq-prefs-secrets", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/.var/app/com.example.App", withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    func testTheFoldersASandboxCanWriteAreFoundWhateverTheSpelling() throws {
        let reach = SandboxReach(home: home, configHome: nil, sandboxed: false)
        let shared = home + "/.config/rizq-prefs"
        XCTAssertEqual(reach.folder(holding: shared + "/secrets.json"), shared)
        XCTAssertEqual(reach.folder(holding: shared + "/groups/../apps/x"), shared)
        XCTAssertEqual(reach.folder(holding: home + "/.var/app/com.example.App/config/secrets.json"), home + "/.var/app")
        XCTAssertNil(reach.folder(holding: home + "/.config/rizq-prefs-secrets/secrets.json"), "a sibling whose name starts the same is not inside")
        XCTAssertNil(reach.folder(holding: home + "/.local/state/rizq-prefs/sync"))
        // Another spelling: a link to the folder, from outside it.
        let link = home + "/elsewhere"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shared + "/groups")
        XCTAssertEqual(reach.folder(holding: link + "/planted.json"), shared, "by device and inode, through the link")
        // Inside a sandbox, the app's own ~/.var/app is its own.
        let inside = SandboxReach(home: home, configHome: home + "/.var/app/com.example.App/config", sandboxed: true)
        XCTAssertNil(inside.folder(holding: home + "/.var/app/com.example.App/config/rizq-prefs-secrets/secrets.json"))
        XCTAssertEqual(inside.folder(holding: shared + "/groups/group.x.json"), shared)
    }

    func testTheHostKeepsItsStateOutsideTheFoldersASandboxCanWrite() {
        let reach = SandboxReach(home: home, configHome: nil, sandboxed: false)
        XCTAssertEqual(reach.stateRoot(forSuitesRoot: home + "/.config/rizq-prefs", stateHome: nil), home + "/.local/state/rizq-prefs")
        XCTAssertEqual(reach.stateRoot(forSuitesRoot: home + "/.config/rizq-prefs", stateHome: "/var/state"), "/var/state/rizq-prefs")
        XCTAssertEqual(reach.stateRoot(forSuitesRoot: "/srv/app/prefs", stateHome: nil), "/srv/app/prefs", "a root of its own keeps its state")
        XCTAssertEqual(SandboxReach.sharedGroupsFolder(home: home), home + "/.config/rizq-prefs/groups")
    }

    func testConfigurationSecretAndHostFilesRefuseTheReachSettingsDoNot() {
        XCTAssertTrue(FileTrust.configuration("c").refusesSandboxReach)
        XCTAssertTrue(FileTrust.secret("s").refusesSandboxReach)
        XCTAssertTrue(FileTrust.hostProvided("h").refusesSandboxReach)
        XCTAssertFalse(FileTrust.settings("suite").refusesSandboxReach, "suites are data: app-group suites live there")
        XCTAssertFalse(FileTrust.secret("s").acceptsStickyFolders, "a secret's folder others can write is refused, sticky bit or not")
    }
}
