import Foundation
import XCTest
@testable import RizqSecrets

/// The vault reads its items' dates by arithmetic when they are in the form it writes; the
/// result is Foundation's ISO 8601 parser's, to the millisecond, and anything else still goes to
/// that parser.
final class VaultDateTests: XCTestCase {
    private let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func testTheDigitsGiveFoundationsTime() throws {
        var texts = ["1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2024-12-31T12:34:56.789Z", "2100-03-01T00:00:00.001Z",
                     "9999-12-31T23:59:59.999Z", "2026-12-07T20:59:54.120Z"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(UInt64.random(in: 0...253_402_300_799_000, using: &generator)) / 1_000)
            texts.append(date.formatted(style))
        }
        for text in texts {
            let ours = try XCTUnwrap(VaultContents.parseDate(text), text)
            let foundations = try style.parse(text)
            XCTAssertEqual(ours, foundations, text)
        }
    }

    func testOtherFormsGoToFoundationAsBefore() {
        XCTAssertEqual(VaultContents.parseDate("2026-12-07T20:59:54Z"), try? style.parse("2026-12-07T20:59:54Z"))
        XCTAssertEqual(VaultContents.parseDate("2026-12-07T21:59:54.000+01:00")?.timeIntervalSince1970, try? style.parse("2026-12-07T20:59:54.000Z").timeIntervalSince1970)
        // What Foundation's parser makes of the rest, the vault still makes of it (it rolls
        // 30 February over into March, and refuses what is not a time at all).
        for other in ["2026-02-30T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-12-07T24:00:00.000Z", "20x6-12-07T20:59:54.120Z", "", "yesterday"] {
            XCTAssertEqual(VaultContents.parseDate(other), try? style.parse(other), other)
        }
    }
}
