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

/// Every file under `folder` and its bytes, by path relative to `folder`; the store's hidden
/// metadata left out: its empty lock files and its change logs (`.<suite>.changes`, when each
/// key was changed, as the extended attribute it replaces was). They are not the user's data: a
/// rolled-back write leaves its log segments there, naming a version of the file that no longer
/// exists, and the version put back carries the record of the one it copies
/// (`SuiteCommitTests.testARevertedCommitIsNoLaterChangeForAnotherProcess`).
public func fileSnapshot(under folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
    for case let relative as String in walker where !relative.hasSuffix(".lock") && !isChangeLog(relative) {
        var isFolder: ObjCBool = false
        let full = folder + "/" + relative
        if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
            files[relative] = FileManager.default.contents(atPath: full) ?? Data()
        }
    }
    return files
}

/// Whether `relative` names a suite's change log, `.<suite>.changes`.
private func isChangeLog(_ relative: String) -> Bool {
    let name = relative.split(separator: "/").last ?? Substring(relative)
    return name.hasPrefix(".") && name.hasSuffix(".changes")
}
