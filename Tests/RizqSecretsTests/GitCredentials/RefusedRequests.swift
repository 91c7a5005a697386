import Foundation
import RizqTestSupport
import XCTest

/// Requests a credential helper must refuse, run against it in one script: each input is written
/// to a file first (some are megabytes), the script runs `$OURS ACTION < FILE` for each, and
/// ``check(_:program:quietOutput:file:line:)`` asserts each exit status, that standard error
/// names what was refused, and that no secret (a value holding `-secret`) was printed anywhere.
final class RefusedRequests {
    /// One request: a name for messages, the action, standard input, the exit status expected
    /// and words standard error must hold.
    struct Case {
        var name: String
        var action: String
        var input: String
        var status: Int32
        var says: String

        init(name: String, _ action: String, _ input: String, _ status: Int32, _ says: String) {
            self.name = name
            self.action = action
            self.input = input
            self.status = status
            self.says = says
        }
    }

    let cases: [Case]
    private let folder = NSTemporaryDirectory() + "rizq-helper-requests-\(UUID().uuidString.prefix(8))"

    init(_ cases: [Case]) throws {
        self.cases = cases
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, test) in cases.enumerated() {
            try Data(test.input.utf8).write(to: URL(fileURLWithPath: "\(folder)/request-\(index)"))
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The bash lines that run every case, printing `case N: status=S bytes=B err=… out=…`.
    var script: String {
        cases.indices.map { index in
            """
            "$OURS" \(cases[index].action) < '\(folder)/request-\(index)' > "$RIZQ_SCRATCH/out-\(index)" 2> "$RIZQ_SCRATCH/err-\(index)"
            echo "case \(index): status=$? bytes=$(wc -c < "$RIZQ_SCRATCH/out-\(index)") err=$(tr '\\n' ' ' < "$RIZQ_SCRATCH/err-\(index)") out=$(tr '\\n' ' ' < "$RIZQ_SCRATCH/out-\(index)")"
            """
        }.joined(separator: "\n") + "\n"
    }

    /// Asserts what the script printed for each case; `quietOutput`: nothing on standard output
    /// (git's helpers), else the same message there (docker's client reads it from there).
    func check(_ output: String, program: String, quietOutput: Bool, file: StaticString = #filePath, line: UInt = #line) {
        let lines = output.split(separator: "\n").map(String.init)
        for (index, test) in cases.enumerated() {
            guard let printed = lines.first(where: { $0.hasPrefix("case \(index): ") }) else {
                XCTFail("\(test.name): no result\n\(output)", file: file, line: line)
                continue
            }
            XCTAssertTrue(printed.contains("status=\(test.status) "), "\(test.name): \(printed)", file: file, line: line)
            XCTAssertTrue(printed.contains("err=\(program): "), "\(test.name): \(printed)", file: file, line: line)
            XCTAssertTrue(printed.contains(test.says), "\(test.name): \(printed)", file: file, line: line)
            if quietOutput { XCTAssertTrue(printed.contains(" bytes=0 "), "\(test.name): \(printed)", file: file, line: line) }
            XCTAssertFalse(printed.contains("-secret"), "\(test.name): a secret was printed: \(printed)", file: file, line: line)
        }
    }
}
