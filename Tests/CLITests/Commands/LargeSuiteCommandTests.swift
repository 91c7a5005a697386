import Foundation
import RizqPrefs
import XCTest

/// Issue 18, item 2 (scale): `rizq-prefs watch` over 100,000 changes made by another process
/// keeps its memory flat. Figures are printed for README's reliability table; the assertion is a
/// bound on growth, never a time: 1 MiB over 90,000 changes, where runs grow by 50–130 KiB and a
/// watch that kept 16 bytes a change grew by 1.4 MiB.
final class LargeSuiteCommandTests: XCTestCase {
    /// The resident set size of a process, in KiB, from /proc.
    private func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }

    func testWatchOverAHundredThousandChangesKeepsItsMemoryFlat() throws {
        let cli = try CLIHarness()
        let suite = "group.com.rizq.watchscale"
        let keys = 1_000
        let rounds = 100
        let watch = try cli.start(["watch", "--suite", suite])
        defer { _ = watch.stop() }
        XCTAssertTrue(watch.wait { _, err in err.contains("watching suite") }, watch.stderr)
        let writer = try SuiteStore(suite: suite, appID: cli.appID, root: cli.root)

        var baseline: Int?
        for round in 1...rounds {
            try writer.commit { batch in
                for index in 0..<keys { try batch.set(round, forKey: String(format: "k%04d", index)) }
            }
            // Each round is one file replacement; the next waits until watch printed all of it, so
            // that none of the 100,000 changes is coalesced away.
            let expected = round * keys
            XCTAssertTrue(watch.wait(seconds: 60) { out, _ in out.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } >= expected }, "round \(round)")
            if round == rounds / 10 { baseline = residentKiB(watch.process.processIdentifier) }
        }
        let final = try XCTUnwrap(residentKiB(watch.process.processIdentifier))
        let start = try XCTUnwrap(baseline)
        XCTAssertTrue(watch.stdout.hasSuffix("= \(rounds)\n"), String(watch.stdout.suffix(200)))
        print("watch RSS after \(rounds / 10 * keys) changes: \(start) KiB; after \(rounds * keys): \(final) KiB")
        XCTAssertLessThan(final - start, 1024, "watch grew by \(final - start) KiB over \(rounds * keys * 9 / 10) changes")
    }
}
