#if Secrets
import Foundation

/// What is at a path of a profile: whether anything is, and whether it is a folder (links
/// followed). The locator and the readers ask it to tell a profile's layout.
enum ProfilePath {
    /// Whether anything is at `path`.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Whether a folder is at `path`.
    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
#endif
