// A child process for the profile tests: it holds a LevelDB database open, as a running
// browser does (LevelDB's LOCK taken, recent writes only in the log), so that the tests can
// read the profile from another process meanwhile.
//
//   rizq-profiles-test-child hold FOLDER ORIGIN KEY=VALUE...
//
// Writes each pair as Chromium does (`_ORIGIN\0` + format byte + Latin-1/UTF-16LE), prints
// "ready", and keeps the database open until its stdin closes.
import CLevelDB
import Foundation

func chromiumBytes(_ text: String) -> [UInt8] {
    let units = Array(text.utf16)
    if units.allSatisfy({ $0 <= 0xFF }) { return [0x01] + units.map { UInt8($0) } }
    return [0x00] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, arguments[1] == "hold" else { fail("usage: rizq-profiles-test-child hold FOLDER ORIGIN KEY=VALUE...") }
let options = leveldb_options_create()
leveldb_options_set_create_if_missing(options, 1)
var error: UnsafeMutablePointer<CChar>?
guard let database = leveldb_open(options, arguments[2], &error), error == nil else {
    fail("cannot open: " + (error.map { String(cString: $0) } ?? "?"))
}
let writeOptions = leveldb_writeoptions_create()
leveldb_writeoptions_set_sync(writeOptions, 1)
for pair in arguments.dropFirst(4) {
    guard let equals = pair.firstIndex(of: "=") else { fail("not KEY=VALUE: \(pair)") }
    let key = [UInt8(ascii: "_")] + Array(arguments[3].utf8) + [0] + chromiumBytes(String(pair[..<equals]))
    let value = chromiumBytes(String(pair[pair.index(after: equals)...]))
    key.withUnsafeBufferPointer { keyBytes in
        value.withUnsafeBufferPointer { valueBytes in
            keyBytes.withMemoryRebound(to: CChar.self) { k in
                valueBytes.withMemoryRebound(to: CChar.self) { v in
                    leveldb_put(database, writeOptions, k.baseAddress, k.count, v.baseAddress, v.count, &error)
                }
            }
        }
    }
    if let error { fail("cannot write: " + String(cString: error)) }
}
FileHandle.standardOutput.write(Data("ready\n".utf8))
_ = FileHandle.standardInput.readDataToEndOfFile()
leveldb_close(database)
