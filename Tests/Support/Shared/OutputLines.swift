import Foundation

/// Reads a child's output line by line as it comes, handing each complete line (without its
/// newline) to `body` until `body` says stop (`false`) or the output ends: the loop of the tests
/// that kill a child at a moment it announced.
/// - Returns: `true` when `body` stopped it, `false` when the output ended first.
@discardableResult
public func readLines(of handle: FileHandle, _ body: (String) throws -> Bool) rethrows -> Bool {
    var buffer = Data()
    while true {
        let chunk = handle.availableData
        if chunk.isEmpty { return false }
        buffer += chunk
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            if try !body(line) { return true }
        }
    }
}
