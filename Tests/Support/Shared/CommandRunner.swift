import Foundation

/// The folder of the built products: the test binary's, where the test children are built.
public var productsFolder: String {
    let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: testBinary).deletingLastPathComponent().path
}

/// Runs `executable` with `arguments`, `input` on its stdin, and returns its exit status and
/// output bytes. Both pipes are read at once, so a chatty stderr cannot block the child.
public func runProcess(
    _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, stdout: Data, stderr: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let input { inp.fileHandleForWriting.write(input) }
    try inp.fileHandleForWriting.close()
    let errorOutput = ErrorOutput()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errorOutput.data = err.fileHandleForReading.readDataToEndOfFile() }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, errorOutput.data)
}

/// ``runProcess(_:_:input:environment:)`` with text in and out.
@discardableResult
public func runCommand(
    _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try runProcess(executable, arguments, input: input.map { Data($0.utf8) }, environment: environment)
    return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
}

/// Runs a command with its output discarded; `true` when it exists and exits 0.
@discardableResult
public func runQuietly(_ executable: String, _ arguments: [String]) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// Written by one reader thread, read after `DispatchGroup.wait()`.
private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
}
