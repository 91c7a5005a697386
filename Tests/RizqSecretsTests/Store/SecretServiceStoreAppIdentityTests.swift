import Foundation
import RizqPrefs
import RizqSecrets
import XCTest

/// A store made without a service serves the app: the same app id as the standard suite.
final class SecretServiceStoreAppIdentityTests: XCTestCase {
    override func tearDown() {
        AppIdentity.configure(appID: nil)
    }

    func testAStoreWithoutAServiceUsesTheAppIDTheSuitesUse() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["RIZQ_PREFS_APP_ID"] != nil, "the environment names the app")
        SuiteStore.configure(appID: "com.rizq.identity-test")
        XCTAssertEqual(SecretServiceStore().service, "com.rizq.identity-test")
        XCTAssertEqual(SecretServiceStore().service, SuiteStore.currentAppID)
    }
}
