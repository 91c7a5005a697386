import Foundation

/// A stand-in for `/etc/xdg` and `/usr/share` in a temporary folder, for the tests of an
/// administrator's layers and installed schemas: folders and files made by the test process
/// (root on the test machines, so they pass the administrator's rule), handed to the code under
/// test through `XDG_CONFIG_DIRS` and `XDG_DATA_DIRS`.
public final class AdministratorLayers: @unchecked Sendable {
    /// The temporary folder everything is under.
    public let base: String
    /// The `<dir>` of `$XDG_CONFIG_DIRS` (first wins), as many as asked for.
    public let configDirectories: [String]
    /// The `<dir>` of `$XDG_DATA_DIRS`.
    public let dataDirectory: String

    /// Folders for `configCount` config directories (none of their `rizq-prefs` folders made yet).
    public init(configCount: Int = 1) {
        var template = Array((NSTemporaryDirectory() + "rizq-layers.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        let base = made.map { String(cString: $0) } ?? (NSTemporaryDirectory() + "rizq-layers-\(UUID().uuidString)")
        chmod(base, 0o755)
        self.base = base
        configDirectories = (0..<configCount).map { "\(base)/etc\($0)/xdg" }
        dataDirectory = base + "/usr/share"
        for folder in configDirectories + [dataDirectory] {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    /// The variables that point the code under test here.
    public var environment: [String: String] {
        ["XDG_CONFIG_DIRS": configDirectories.joined(separator: ":"), "XDG_DATA_DIRS": dataDirectory]
    }

    /// Sets ``environment`` in this process (for suites opened in it from now on).
    public func setInProcess() {
        for (name, value) in environment { setenv(name, value, 1) }
    }

    /// `apps/<app>/<suite>` or `groups/<suite>`.
    public static func relative(app: String, suite: String) -> String {
        suite.hasPrefix("group.") ? "groups/\(suite)" : "apps/\(app)/\(suite)"
    }

    /// The layer file (`layer`: `managed` or `defaults`) of a suite in the config directory
    /// number `directory`; with `dropIn`, the drop-in of that name in `<suite>.d/`.
    public func path(_ layer: String, app: String, suite: String, dropIn: String? = nil, directory: Int = 0) -> String {
        let base = "\(configDirectories[directory])/rizq-prefs/\(layer)/\(Self.relative(app: app, suite: suite))"
        return dropIn.map { "\(base).d/\($0)" } ?? base + ".json"
    }

    /// Writes a layer file (made beside it and renamed into place, as a configuration tool does),
    /// with the folders it needs (0755); returns its path.
    @discardableResult
    public func write(_ layer: String, app: String, suite: String, _ json: String, dropIn: String? = nil, directory: Int = 0) throws -> String {
        let path = path(layer, app: app, suite: suite, dropIn: dropIn, directory: directory)
        try place(Data(json.utf8), at: path)
        return path
    }

    /// Where a suite's schema is installed under ``dataDirectory``.
    public func schemaPath(app: String, suite: String) -> String {
        "\(dataDirectory)/rizq-prefs/schemas/\(Self.relative(app: app, suite: suite)).schema.json"
    }

    /// Installs a schema document; returns its path.
    @discardableResult
    public func installSchema(_ document: Data, app: String, suite: String) throws -> String {
        let path = schemaPath(app: app, suite: suite)
        try place(document, at: path)
        return path
    }

    /// Writes `bytes` at `path` (mode 0644) through a rename, making the folders (0755).
    public func place(_ bytes: Data, at path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let temporary = folder + "/.incoming-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o644]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Removes a file or folder.
    public func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: path)
    }
}
