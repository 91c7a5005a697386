import Foundation
import XCTest

/// The real Secret Service that scripts/test starts: a clear failure (not a silent skip) when
/// the tests run without it.
public func requireSecretService(file: StaticString = #filePath, line: UInt = #line) throws {
    guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
        XCTFail("no D-Bus session: run these tests through scripts/test (or scripts/with-keyring swift test)", file: file, line: line)
        throw XCTSkip("no session bus")
    }
}
