import Foundation

/// The checkout's root folder (the one holding `Package.swift`), found from the test file that
/// asks (`#filePath`): fixtures are named from there, wherever the test file sits.
public func repositoryRoot(_ file: String = #filePath) -> URL {
    var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources").path)
        {
            return folder
        }
        folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}
