import Foundation

/// A temporary folder written as kubelet writes a ConfigMap or Secret volume, by the real
/// sequence of its atomic writer (`scripts/kubelet-writer`, run as a process of its own): a
/// generation folder, `..data_tmp` renamed onto `..data`, the top-level links made and removed
/// after the switch, the old generation deleted last.
public final class KubeletVolume {
    /// The volume's folder.
    public let path: String

    /// `scripts/kubelet-writer` in this checkout.
    public static var script: String { repositoryRoot().appendingPathComponent("scripts/kubelet-writer").path }

    /// A new, empty folder (0755, this user's), nothing written yet.
    public init(_ label: String = "volume") throws {
        path = NSTemporaryDirectory() + "rizq-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes one generation holding exactly `values` (keys not given are removed), and returns
    /// the name of the generation published (`nil`: nothing needed writing).
    @discardableResult
    public func write(_ values: [String: String], options: [String] = []) throws -> String? {
        let pairs = values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }
        let result = try runCommand("/usr/bin/python3", [Self.script, path] + options + pairs)
        guard result.status == 0 else {
            throw VolumeError("kubelet-writer failed (\(result.status)): \(result.stderr)")
        }
        return Self.generations(in: result.stdout).last
    }

    /// Writes `count` generations back to back (generation i gives every key the value "i";
    /// with `dropOdd`, odd ones leave out the last key); returns their names, in order.
    public func burst(_ count: Int, keys: [String], dropOdd: Bool) throws -> [String] {
        let result = try runCommand("/usr/bin/python3", [Self.script, path, "--burst", "\(count)", "--keys", keys.joined(separator: ",")] + (dropOdd ? ["--drop-odd"] : []))
        guard result.status == 0 else {
            throw VolumeError("kubelet-writer --burst failed (\(result.status)): \(result.stderr)")
        }
        return Self.generations(in: result.stdout)
    }

    /// Starts a burst without waiting for it (to read while it writes).
    public func startBurst(_ count: Int, keys: [String], dropOdd: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, path, "--burst", "\(count)", "--keys", keys.joined(separator: ",")] + (dropOdd ? ["--drop-odd"] : [])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The generation `..data` names now.
    public var currentGeneration: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path + "/..data")
    }

    /// The generation folders present (names that start with `..` and are not kubelet's links).
    public var generationFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("..") && $0 != "..data" && $0 != "..data_tmp" }
    }

    private static func generations(in output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            line.hasPrefix("published ") ? String(line.dropFirst("published ".count)) : nil
        }
    }
}

/// What went wrong while writing a test volume.
public struct VolumeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
