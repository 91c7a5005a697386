import Foundation

/// The files under `folder` whose bytes contain `needle`, as paths relative to `folder`, sorted.
/// Never the needle itself, so that a failure message cannot print a secret.
public func filesContaining(_ needle: String, under folder: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    let bytes = Data(needle.utf8)
    var hits: [String] = []
    for case let relative as String in walker {
        if let data = FileManager.default.contents(atPath: folder + "/" + relative), data.range(of: bytes) != nil {
            hits.append(relative)
        }
    }
    return hits.sorted()
}

/// Every file under `folder` and its bytes, by path relative to `folder`; the store's empty,
/// hidden lock files left out (they are not the user's data).
public func fileSnapshot(under folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
    for case let relative as String in walker where !relative.hasSuffix(".lock") {
        var isFolder: ObjCBool = false
        let full = folder + "/" + relative
        if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
            files[relative] = FileManager.default.contents(atPath: full) ?? Data()
        }
    }
    return files
}
