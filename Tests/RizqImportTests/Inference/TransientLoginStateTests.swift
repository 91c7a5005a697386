import XCTest
@testable import RizqImport

/// Login state a web app keeps only for a moment (an OIDC callback, a PKCE verifier) is not
/// imported at all: it would be stale at once.
final class TransientLoginStateTests: XCTestCase {
    func testTransientLoginState() {
        XCTAssertNotNil(TransientLoginState.reason(forKey: "kc-callback-1f6a"))
        XCTAssertNotNil(TransientLoginState.reason(forKey: "oidc.8d1f3c"))
        XCTAssertNil(TransientLoginState.reason(forKey: "oidc.user:https://id.example:client"), "the signed-in user is a credential, not transient")
        XCTAssertNotNil(TransientLoginState.reason(forKey: "pkce_code_verifier"))
        XCTAssertNotNil(TransientLoginState.reason(forKey: "app.codeVerifier"))
        XCTAssertNil(TransientLoginState.reason(forKey: "theme_mode"))
    }
}
