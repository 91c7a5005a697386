import Foundation
import XCTest

/// Issue 29, items 2 and 3 at the command line: `doctor` reports what the file system under the
/// suites can do for the same-key rule and change delivery (user extended attributes, an atomic
/// exchange, whether inotify sees other writers) and the inotify limits in use.
final class DoctorCapabilitiesTests: XCTestCase {
    func testDoctorReportsTheFileSystemsCapabilitiesAndTheInotifyLimits() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "k", "v").status, 0)
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertTrue(doctor.stdout.contains("extended attributes"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("atomic exchange"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("inotify"), doctor.stdout)
        let limit = try String(contentsOfFile: "/proc/sys/fs/inotify/max_user_instances", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(doctor.stdout.contains("max_user_instances \(limit)"), doctor.stdout)
        let json = try cli.run("doctor", "--skip-secrets", "--json")
        XCTAssertTrue(json.stdout.contains("\"area\":\"capabilities\"") || json.stdout.contains("max_user_watches"), json.stdout)
    }
}
