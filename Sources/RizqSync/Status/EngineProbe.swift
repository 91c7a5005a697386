import Foundation
import RizqCore
import RizqJSON
import RizqPrefs

/// Asks whether the sync engine looks after a folder (``SyncEngineCheck``), and nudges
/// Syncthing to rescan a file at once.
struct EngineProbe: Sendable {
    let check: SyncEngineCheck
    let folder: String

    /// Why the engine does not look after the folder; `nil` when it does (or nothing is checked).
    func problem() -> String? {
        switch check {
        case .none:
            return nil
        case .folderMarker(let marker):
            if ReplicaFolder.engineRoot(of: folder, marker: marker) != nil { return nil }
            return "no '\(marker)' marker in \(folder) or a folder above it: no sync engine shares it (add the folder to Syncthing, or point the suite at a folder it shares)"
        case .syncthing(let home):
            do {
                let api = try SyncthingAPI(home: home)
                guard let shared = try api.sharedFolder(holding: folder) else {
                    return "Syncthing (\(api.address)) shares no folder that holds \(folder); add it in Syncthing"
                }
                if shared.paused { return "the folder '\(shared.id)' is paused in Syncthing (\(api.address)); resume it" }
                return nil
            } catch {
                return error.description
            }
        }
    }

    /// Asks Syncthing to rescan `file` (inside the folder) now, instead of after its watcher's
    /// delay; nothing for other engines, and nothing when Syncthing cannot be reached.
    func nudge(_ file: String) {
        guard case .syncthing(let home) = check, let api = try? SyncthingAPI(home: home),
            let shared = try? api.sharedFolder(holding: file)
        else { return }
        let relative = String(file.dropFirst(shared.path.count)).drop { $0 == "/" }
        _ = try? api.call("POST", "/rest/db/scan?folder=\(Self.escape(shared.id))&sub=\(Self.escape(String(relative)))")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~/"))) ?? text
    }
}

/// Syncthing's REST API as its own `config.xml` describes it (the GUI address and API key):
/// nothing to configure twice, and the key is never on a command line.
struct SyncthingAPI: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct SharedFolder {
        var id: String
        var path: String
        var paused: Bool
    }

    let host: String
    let port: UInt16
    private let apiKey: String
    /// Who owns the configuration, and so who the Syncthing that gets its API key must run as.
    let owner: uid_t
    var address: String { "http://\(host):\(port)" }

    /// The most of `config.xml` read (a large setup's is some hundreds of KiB).
    static let configurationLimit = 16 << 20

    init(home: String) throws(Failure) {
        let path = home + "/config.xml"
        // Through the file layer: this user's (or root's), nobody else may write it, never a
        // FIFO, bounded in size.
        let read: (bytes: [UInt8], stamp: FileStamp)?
        do {
            read = try PrivateFile.read(path, trust: .settings("Syncthing configuration"), limit: Self.configurationLimit)
        } catch {
            throw Failure(description: "Syncthing's configuration \(path) is not read: \(error.reason)")
        }
        guard let read, let text = String(validating: read.bytes, as: UTF8.self) else {
            throw Failure(description: "Syncthing's configuration \(path) cannot be read: is Syncthing set up with --home \(home)?")
        }
        owner = read.stamp.owner.user
        guard let gui = Self.block("gui", in: text), let address = Self.element("address", in: gui), let key = Self.element("apikey", in: gui) else {
            throw Failure(description: "\(path) names no GUI address and API key")
        }
        if gui.range(of: #"tls="true""#) != nil {
            throw Failure(description: "Syncthing's API at \(address) uses TLS, which this check does not speak; use the folder-marker check instead")
        }
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw Failure(description: "Syncthing's GUI address '\(address)' in \(path) has no port")
        }
        var host = String(address[..<colon])
        if host.isEmpty || host == "0.0.0.0" { host = "127.0.0.1" }
        self.host = host
        self.port = port
        self.apiKey = key
    }

    /// The body of `method path`, or why not.
    func call(_ method: String, _ path: String) throws(Failure) -> [UInt8] {
        let response: LoopbackHTTP.Response
        do {
            response = try LoopbackHTTP.request(method, host: host, port: port, path: path, headers: ["X-API-Key": apiKey], listenerOwner: owner)
        } catch .foreignListener(let peer, let owner, let expected) {
            throw Failure(description: LoopbackHTTP.Failure.foreignListener(peer: peer, owner: owner, expected: expected).description)
        } catch {
            throw Failure(description: "Syncthing does not answer at \(address) (\(error)): is it running?")
        }
        guard response.status == 200 else {
            throw Failure(description: "Syncthing at \(address) answered \(response.status) to \(path)")
        }
        return response.body
    }

    /// The folder Syncthing shares that holds `path` (the longest such); `nil` when none does.
    func sharedFolder(holding path: String) throws(Failure) -> SharedFolder? {
        let body = try call("GET", "/rest/config/folders")
        guard case .array(let folders)? = try? JSONReader.parse(body) else {
            throw Failure(description: "Syncthing at \(address) sent a folder list that is not JSON")
        }
        let target = Self.resolved(path)
        var best: SharedFolder?
        for case .dictionary(let folder) in folders {
            guard case .string(let id)? = folder["id"], case .string(let root)? = folder["path"] else { continue }
            let resolvedRoot = Self.resolved(root)
            guard target == resolvedRoot || target.hasPrefix(resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/") else { continue }
            if best == nil || resolvedRoot.count > (best?.path.count ?? 0) {
                best = SharedFolder(id: id, path: resolvedRoot, paused: folder["paused"] == .bool(true))
            }
        }
        return best
    }

    private static func resolved(_ path: String) -> String {
        var result = (path as NSString).resolvingSymlinksInPath
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// The first `<name …>…</name>` of `xml`, tags included.
    private static func block(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<" + name + " ") ?? xml.range(of: "<" + name + ">"),
            let close = xml.range(of: "</" + name + ">", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.lowerBound..<close.upperBound])
    }

    /// The text inside the first `<name …>…</name>` of `xml`.
    private static func element(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<" + name), let close = xml.range(of: "</" + name + ">", range: open.upperBound..<xml.endIndex),
            let tagEnd = xml.range(of: ">", range: open.upperBound..<close.lowerBound)
        else { return nil }
        return String(xml[tagEnd.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
