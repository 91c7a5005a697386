#if Secrets
import Crypto
import Foundation
import RizqCore

/// One service's folder under the secrets root (`RIZQ_SECRETS_DIR`, else
/// `$XDG_DATA_HOME/rizq-prefs/secrets`): `<root>/<folder name>/`. The vault keeps its files
/// there, the plain-text backend its file, and the chain its own state (the remembered write
/// target, a move's journal), each under its own name; none of them needs another to find it.
/// Only the service name is visible on disk.
struct ServiceFolder: Sendable, Equatable {
    /// The service.
    let service: String
    /// The secrets root the folder is in, without a trailing `/`.
    let root: String
    /// `<root>/<folder name>`.
    let path: String

    /// The folder of `service` under `root`; `nil` when the service name cannot name a folder
    /// (RizqCore's `SecretInput`: the one rule for every backend's service names; ``problem(with:)``
    /// says why).
    init?(service: String, root: String) {
        guard Self.problem(with: service) == nil else { return nil }
        self.service = service
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.path = self.root + "/" + Self.folderName(of: service)
    }

    /// Why `service` cannot name a folder ("it is empty", …), or `nil` when it can.
    static func problem(with service: String) -> String? {
        SecretInput.problem(withService: service).map { "it " + $0 }
    }

    /// The path of the file `name` in the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// The folder name of `service`: the name itself when it is a plain folder name — what
    /// earlier releases made, unchanged — else `%` and the name with `%`, `/`, control
    /// characters and a leading `-` or `.` written `%XX`, so that no name becomes a path, a line
    /// break, a hidden folder or an option (a plain name never starts with `%`, so the two never
    /// meet). A folder name that would pass 255 bytes is `%~` and the SHA-256 of the name, in hex.
    static func folderName(of service: String) -> String {
        let bytes = Array(service.utf8)
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        let plain = !bytes.contains(where: isControl) && !bytes.contains(UInt8(ascii: "/")) && bytes.first != UInt8(ascii: "-")
            && bytes.first != UInt8(ascii: "%") && service != "." && service != ".." && bytes.count <= 200
        if plain { return service }
        var escaped: [UInt8] = [UInt8(ascii: "%")]
        for (index, byte) in bytes.enumerated() {
            let leading = index == 0 && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))
            if isControl(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "/") || leading {
                escaped += Array(("%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            } else {
                escaped.append(byte)
            }
        }
        guard escaped.count <= 255 else {
            return "%~" + SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
#endif
