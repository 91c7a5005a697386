import Foundation
import RizqCore
import RizqMounts
import RizqTestSupport
import XCTest

/// `NAME_FILE`: docker-library's `file_env` rules, checked against the shell function itself.
final class FileVariableTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "rizq-file-env-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testTheFileGivesTheValueWithEveryTrailingNewlineCut() throws {
        let path = try file("secret", "  s3cr3t \n\n\r\n\n\n")
        let value = try XCTUnwrap(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD_FILE": path]))
        XCTAssertEqual(value.text, "  s3cr3t \n\n\r", "only trailing newlines go; a \\r stops them")
        XCTAssertEqual(value.source, .file(path: path))
        XCTAssertEqual(try fileEnv("DB_PASSWORD", ["DB_PASSWORD_FILE": path]), value.text, "as the shell's file_env gives it")
    }

    func testTheVariableItselfIsUsedAsItIs() throws {
        let value = try XCTUnwrap(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD": "pw\n"]))
        XCTAssertEqual(value.text, "pw\n")
        XCTAssertEqual(value.source, .variable)
    }

    func testBothSetIsAnErrorAndAnEmptyOneCountsAsUnset() throws {
        let path = try file("secret", "from-file\n")
        XCTAssertThrowsError(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD": "x", "DB_PASSWORD_FILE": path])) { error in
            XCTAssertEqual(error as? MountError, .variableBothSet(name: "DB_PASSWORD"))
            XCTAssertEqual("\(error)", "both DB_PASSWORD and DB_PASSWORD_FILE are set, but they exclude each other; unset one of them")
        }
        XCTAssertNotEqual(try fileEnvStatus("DB_PASSWORD", ["DB_PASSWORD": "x", "DB_PASSWORD_FILE": path]), 0, "file_env refuses it too")
        XCTAssertEqual(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD": "", "DB_PASSWORD_FILE": path])?.text, "from-file")
        XCTAssertEqual(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD": "x", "DB_PASSWORD_FILE": ""])?.text, "x")
        XCTAssertNil(try FileVariable.text(of: "DB_PASSWORD", in: ["DB_PASSWORD": "", "DB_PASSWORD_FILE": ""]))
    }

    func testAnEmptyFileIsAnEmptyValueAndAMissingOneAnError() throws {
        let empty = try file("empty", "")
        XCTAssertEqual(try FileVariable.text(of: "TOKEN", in: ["TOKEN_FILE": empty])?.text, "")
        XCTAssertEqual(try fileEnv("TOKEN", ["TOKEN_FILE": empty]), "")
        XCTAssertThrowsError(try FileVariable.text(of: "TOKEN", in: ["TOKEN_FILE": folder + "/none"])) { error in
            guard case MountError.variableFileUnreadable("TOKEN", _, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "it does not exist")
        }
    }

    func testAFileOthersCanWriteOrNotTextIsRefused() throws {
        let open = try file("open", "pw", mode: 0o666)
        XCTAssertThrowsError(try FileVariable.text(of: "TOKEN", in: ["TOKEN_FILE": open])) { error in
            guard case MountError.variableFileUnreadable(_, _, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("any user can write it"), reason)
        }
        let binary = folder + "/binary"
        try Data([0x70, 0x00, 0x77, 0x0A]).write(to: URL(fileURLWithPath: binary))
        XCTAssertThrowsError(try FileVariable.text(of: "TOKEN", in: ["TOKEN_FILE": binary])) { error in
            XCTAssertEqual(error as? MountError, .variableNotText(name: "TOKEN", path: binary))
        }
        XCTAssertEqual(try FileVariable.bytes(of: "TOKEN", in: ["TOKEN_FILE": binary])?.bytes, [0x70, 0x00, 0x77], "bytes keep the NUL")
    }

    func testResolvingLeavesNameAndDropsNameFile() throws {
        let path = try file("pw", "hunter2\n")
        let (environment, fromFiles) = try FileVariable.resolving(["DB_PASSWORD", "DB_USER"], in: ["DB_PASSWORD_FILE": path, "DB_USER": "app", "OTHER": "1"])
        XCTAssertEqual(environment, ["DB_PASSWORD": "hunter2", "DB_USER": "app", "OTHER": "1"])
        XCTAssertEqual(fromFiles, ["DB_PASSWORD"])
        let every = try FileVariable.resolving(nil, in: ["A_FILE": path, "B": "b"])
        XCTAssertEqual(every.environment, ["A": "hunter2", "B": "b"])
    }

    // MARK: Helpers

    private func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, mode_t(mode)), 0)
        return path
    }

    /// docker-library's file_env, as postgres' entrypoint has it, run by bash; prints the value.
    private static let fileEnvScript = """
        set -Eeo pipefail
        file_env() {
            local var="$1"
            local fileVar="${var}_FILE"
            local def="${2:-}"
            if [ "${!var:-}" ] && [ "${!fileVar:-}" ]; then
                printf >&2 'error: both %s and %s are set (but are exclusive)\\n' "$var" "$fileVar"
                exit 1
            fi
            local val="$def"
            if [ "${!var:-}" ]; then
                val="${!var}"
            elif [ "${!fileVar:-}" ]; then
                val="$(< "${!fileVar}")"
            fi
            export "$var"="$val"
            unset "$fileVar"
        }
        file_env "$1"
        printf '%s' "${!1}"
        """

    private func fileEnv(_ name: String, _ environment: [String: String]) throws -> String {
        let result = try runCommand("/bin/bash", ["-c", Self.fileEnvScript, "file_env", name], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    private func fileEnvStatus(_ name: String, _ environment: [String: String]) throws -> Int32 {
        try runCommand("/bin/bash", ["-c", Self.fileEnvScript, "file_env", name], environment: environment).status
    }
}
