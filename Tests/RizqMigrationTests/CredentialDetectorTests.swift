import Foundation
import XCTest
@testable import RizqMigration

/// Which entries are credentials, and why (the routing to the real Secret Service is tested in
/// `CredentialRoutingTests`).
final class CredentialDetectorTests: XCTestCase {
    private func evidence(_ key: String, _ value: String) -> CredentialDetector.Finding.Evidence? {
        CredentialDetector.inspect(key: key, value: value)?.evidence
    }

    func testAuthLibraryKeys() {
        for key in [
            "firebase:authUser:AIzaFake:[DEFAULT]", "@@auth0spajs@@::client::default::openid", "msal.token.keys.client-id",
            "uid.tid-login.windows.net-accesstoken-client-tenant-scope", "sb-abcdefgh-auth-token",
            "CognitoIdentityServiceProvider.client.user.idToken", "CognitoIdentityServiceProvider.client.LastAuthUser",
            "okta-token-storage", "Meteor.loginToken", "Meteor.loginTokenExpires",
        ] {
            XCTAssertEqual(evidence(key, "x"), .authLibraryKey, key)
        }
    }

    func testValueShapes() {
        XCTAssertEqual(evidence("a", FakeToken.jwt()), .valueShape)
        XCTAssertEqual(evidence("a", "Bearer " + FakeToken.jwt()), .valueShape)
        XCTAssertEqual(evidence("a", jsonString(FakeToken.jwt())), .valueShape, "a JSON string literal holding a JWT (Portainer)")
        XCTAssertEqual(evidence("a", FakeToken.jwe()), .valueShape)
        XCTAssertEqual(evidence("a", FakeToken.base64Session()), .valueShape)
        for token in [FakeToken.googleAccess(), FakeToken.github(), FakeToken.awsKeyID(), FakeToken.stripe()] {
            XCTAssertEqual(evidence("a", token), .valueShape, String(token.prefix(4)))
        }
        XCTAssertEqual(evidence("a", #"[{"t":"\#(FakeToken.jwt())","n":"admin"}]"#), .valueShape, "a JWT inside a JSON array")
        XCTAssertEqual(CredentialDetector.strongValueShape(#"[{"t":"\#(FakeToken.jwt())"}]"#), "JWT inside the JSON value (at /0/t)")
        // Look-alikes are not tokens.
        XCTAssertNil(evidence("a", "eyJhbGciOi"))
        XCTAssertNil(evidence("a", "version.1.2"))
        XCTAssertNil(evidence("a", "AKIA"))
        XCTAssertNil(evidence("a", "eyJub3QiOiJqc29uIn0.eyJ4IjoxfQ"), "two parts are not a JWT")
        XCTAssertNil(evidence("a", "base64-abc"))
    }

    func testJSONFields() {
        XCTAssertEqual(evidence("state", #"{"access_token":"opaque-value","expires_in":3600}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"user":{"stsTokenManager":{"refreshToken":"opaque"}}}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"idToken":"x1"}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"secret":"s"}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"nested":"{\"apiKey\":\"k\"}"}"#), .jsonFields, "inside JSON held in a string")
        XCTAssertNil(evidence("state", #"{"access_token":"","refresh_token":null}"#), "empty fields hold no credential")
        XCTAssertNil(evidence("state", #"{"showPasswordHints":true,"token_type":"bearer"}"#))
        XCTAssertNil(evidence("prefs", #"{"theme":"dark","dailyGoal":3}"#))
    }

    func testKeyNames() {
        for key in ["auth_token", "AccessToken", "user_session", "client_secret", "password", "jellyfin_credentials", "api_key", "stripeApiKey", "x-api-key", "isAuthenticated"] {
            XCTAssertEqual(evidence(key, "v"), .keyName, key)
        }
        for key in ["theme_mode", "lastUsedProvider", "rizq_user_habits", "sb_wiz.qc"] {
            XCTAssertNil(evidence(key, "v"), key)
        }
    }

    func testTransientLoginState() {
        XCTAssertNotNil(TransientLoginState.reason(forKey: "kc-callback-1f6a"))
        XCTAssertNotNil(TransientLoginState.reason(forKey: "oidc.8d1f3c"))
        XCTAssertNil(TransientLoginState.reason(forKey: "oidc.user:https://id.example:client"), "the signed-in user is a credential, not transient")
        XCTAssertNotNil(TransientLoginState.reason(forKey: "pkce_code_verifier"))
        XCTAssertNotNil(TransientLoginState.reason(forKey: "app.codeVerifier"))
        XCTAssertNil(TransientLoginState.reason(forKey: "theme_mode"))
    }
}
