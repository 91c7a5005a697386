@testable import RizqCore
import XCTest

/// Issue 50, item 22: the one service-name rule every backend asks (what cannot come through a
/// command line: an empty name, a NUL byte).
final class SecretInputTests: XCTestCase {
    func testTheOneServiceNameRule() {
        XCTAssertEqual(SecretInput.problem(withService: ""), "is empty; give the app id or another name")
        XCTAssertEqual(SecretInput.problem(withService: "a\u{0}b"), "contains a NUL byte")
        XCTAssertEqual(SecretInput.problem(withService: String(repeating: "x", count: 1_025)), "is longer than 1024 bytes")
        for name in ["com.example.app", "-rf", "line\nbreak", "a/b", ".", "..", "100%", "ünï ✓"] {
            XCTAssertNil(SecretInput.problem(withService: name), name.debugDescription)
        }
        XCTAssertThrowsError(try SecretInput.validate(service: "", account: "a"))
    }
}
