#if CLI
import Foundation
import RizqJSON
import RizqPrefs

/// A file a command reads because the user named it (`import FILE`, `fleet import FILE`), or
/// stdin for `-`: read whole, bounded, with errors that say what to give instead. A FIFO the user
/// names (`<(jq …)`) is read as any input: the user chose it.
package struct InputFile {
    /// The largest input accepted: a suite is not that big.
    package static let maximumSize = 64 * 1024 * 1024

    /// The path, or `-` for stdin.
    package var file: String

    /// The input named `file` (`-`: stdin).
    package init(_ file: String) {
        self.file = file
    }

    /// "stdin" or the path, for messages.
    package var displayName: String { file == "-" ? "stdin" : file }

    /// Every byte of the input.
    /// - Throws: a usage error (exit 2) naming what is wrong: missing, a folder, unreadable, too large.
    package func read() throws(CLIError) -> Data {
        let handle: FileHandle
        if file == "-" {
            handle = FileHandle.standardInput
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
                throw CLIError(.usage, "no file '\(file)'; give the path of a JSON file, or - to read stdin")
            }
            guard !isFolder.boolValue, let opened = FileHandle(forReadingAtPath: file) else {
                throw CLIError(.usage, "cannot read '\(file)': \(isFolder.boolValue ? "it is a folder" : "permission denied"); give a readable JSON file")
            }
            handle = opened
        }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maximumSize + 1) ?? Data()
        } catch {
            throw CLIError(.usage, "cannot read \(displayName): \(error.localizedDescription)")
        }
        guard data.count <= Self.maximumSize else {
            throw CLIError(.usage, "\(displayName) is larger than 64 MiB; a suite is not that big: split the file")
        }
        return data
    }

    /// The input's top-level JSON object, as `writer` (the command that exports it) writes it.
    /// - Throws: a usage error when it is not JSON, or not an object.
    package func readObject(writtenBy writer: String) throws(CLIError) -> [String: PrefValue] {
        let data = try read()
        let parsed: PrefValue
        do {
            parsed = try JSONReader.parseSuiteDocument(data).value
        } catch {
            throw CLIError(.usage, "\(displayName) is not JSON (\(error.reason), line \(error.line), column \(error.column)); give a JSON object as '\(writer)' writes it")
        }
        guard case .dictionary(let entries) = parsed else {
            throw CLIError(.usage, "\(displayName) holds \(parsed.kindName), not a JSON object; give an object as '\(writer)' writes it")
        }
        return entries
    }
}
#endif
