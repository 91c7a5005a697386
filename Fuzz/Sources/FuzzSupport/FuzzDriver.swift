import Foundation

/// libFuzzer's entry point for programs that have a `main` of their own.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The body of the running target (one per process).
nonisolated(unsafe) private var currentBody: ((UnsafeRawBufferPointer) -> Void)?

/// Runs libFuzzer with this process's arguments, calling `body` with each input; returns
/// libFuzzer's exit status. SwiftPM gives an executable target its own `main` (from
/// `main.swift`), so a target calls this from there rather than exporting
/// `LLVMFuzzerTestOneInput`.
public func runFuzzer(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    currentBody = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentBody?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
    exit(status)
}

/// libFuzzer's entry point for programs without a `main` of their own: forwards to the running
/// body. Only a debug build needs it (`scripts/fuzz --debug`): SwiftPM renames a debug
/// executable's `main` (to `fuzz_NAME_main`, so that tests could link it) and points `main` at it
/// with `--defsym`, which lld applies only after it has taken libFuzzer's own `main` from its
/// archive for the `main` still undefined then; that `main` calls this. The `--defsym` wins all
/// the same: the target's `main.swift` runs, and calls runFuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    currentBody?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Stops the run as a finding when `condition` is false: libFuzzer saves the input that did it.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard condition() else {
        FileHandle.standardError.write(Data("fuzz property violated at \(file):\(line): \(message())\n".utf8))
        abort()
    }
}
