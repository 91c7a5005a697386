import Foundation
import RizqTestSupport
import XCTest

/// swift-crypto stays out of programs that only want preferences: a program built on RizqPrefs
/// alone (`rizq-prefs-test-child`) holds no symbol of swift-crypto or its BoringSSL, and no
/// Secret Service code, while one built on RizqSecrets (`rizq-secrets-test-child`) holds both
/// (which shows the check can see them). swift-crypto is linked statically, so the symbol table
/// (`nm`, binutils), not the dynamic section, is where it would show.
final class CryptoLinkageTests: XCTestCase {
    /// A product built beside this test bundle.
    private func product(_ name: String) -> String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().path + "/" + name
    }

    /// How many symbols of `program` contain each of `markers`.
    private func symbolCounts(_ program: String, _ markers: [String]) throws -> [String: Int] {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"), "nm is missing (binutils, which swift's linker needs)")
        let listing = try runCommand("/usr/bin/nm", [program])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let symbols = listing.stdout.split(separator: "\n")
        XCTAssertGreaterThan(symbols.count, 1000, "nm listed the symbols of \(program)")
        return Dictionary(uniqueKeysWithValues: markers.map { marker in (marker, symbols.filter { $0.contains(marker) }.count) })
    }

    func testAPreferencesOnlyProgramHoldsNoCryptographyAndNoSecretServiceCode() throws {
        let markers = ["CCryptoBoringSSL", "s6Crypto", "SecretServiceStore", "VaultSecretStore"]
        let withSecrets = try symbolCounts(product("rizq-secrets-test-child"), markers)
        for marker in markers { XCTAssertGreaterThan(withSecrets[marker] ?? 0, 0, "a RizqSecrets program holds \(marker)") }
        let preferencesOnly = try symbolCounts(product("rizq-prefs-test-child"), markers)
        XCTAssertEqual(preferencesOnly, Dictionary(uniqueKeysWithValues: markers.map { ($0, 0) }), "a preferences-only program holds none")
    }
}
