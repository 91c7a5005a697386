import Foundation
import RizqCore
import XCTest

/// One resolution of the app id for suites, secrets and the command line: the environment,
/// then `configure(appID:)`, then the executable's name.
final class AppIdentityTests: XCTestCase {
    override func tearDown() {
        AppIdentity.configure(appID: nil)
    }

    func testTheEnvironmentWinsOverTheConfiguredID() {
        AppIdentity.configure(appID: "com.rizq.configured")
        XCTAssertEqual(AppIdentity.resolve(environment: ["RIZQ_PREFS_APP_ID": "com.rizq.environment"]), "com.rizq.environment")
    }

    func testTheConfiguredIDWinsOverTheExecutableName() {
        AppIdentity.configure(appID: "com.rizq.configured")
        XCTAssertEqual(AppIdentity.resolve(environment: [:]), "com.rizq.configured")
        XCTAssertEqual(AppIdentity.resolve(environment: ["RIZQ_PREFS_APP_ID": ""]), "com.rizq.configured", "an empty variable counts as unset")
    }

    func testWithNeitherTheExecutableNameIsTheAppID() {
        AppIdentity.configure(appID: nil)
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        XCTAssertEqual(AppIdentity.resolve(environment: [:]), executable)
    }

    func testConfiguringAnEmptyIDForgetsTheEarlierOne() {
        AppIdentity.configure(appID: "com.rizq.configured")
        AppIdentity.configure(appID: "")
        XCTAssertNotEqual(AppIdentity.resolve(environment: [:]), "com.rizq.configured")
    }

    func testACommandLineOptionWinsAndTheToolNeverFallsBackToItsOwnName() {
        XCTAssertEqual(AppIdentity.named("com.rizq.option", environment: ["RIZQ_PREFS_APP_ID": "com.rizq.environment"]), "com.rizq.option")
        XCTAssertEqual(AppIdentity.named(nil, environment: ["RIZQ_PREFS_APP_ID": "com.rizq.environment"]), "com.rizq.environment")
        XCTAssertNil(AppIdentity.named(nil, environment: [:]))
        XCTAssertNil(AppIdentity.named("", environment: [:]))
    }
}
