import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// The smallest HTTP/1.0 client that talks to a sync engine's API on this machine
/// (Syncthing's REST API on `127.0.0.1`): plain TCP over loopback, one request per connection,
/// a deadline on every step. Written here so that device sync, and the CLI that links it, need
/// no HTTP library (FoundationNetworking brings libcurl along). Nothing it sends is logged: the
/// API key travels in a header only.
enum LoopbackHTTP {
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    enum Failure: Error, CustomStringConvertible {
        case notLoopback(String)
        case unreachable(String)
        case malformed
        /// The process that accepted the connection is not `expected`'s: nothing was sent.
        case foreignListener(peer: String, owner: uid_t?, expected: uid_t)

        var description: String {
            switch self {
            case .notLoopback(let address): return "\(address) is not an address on this machine"
            case .unreachable(let reason): return reason
            case .malformed: return "the answer is not HTTP"
            case .foreignListener(let peer, let owner, let expected):
                let who = owner.map { "user \($0) (\(FileWords.userName($0)))" } ?? "a process whose owner cannot be told"
                return "the program listening at \(peer) belongs to \(who), not to user \(expected) (\(FileWords.userName(expected))), who owns the engine's configuration: another user may have taken the port, so nothing (the API key least of all) was sent to it"
            }
        }
    }

    /// Sends `method path` to `host:port` (an IPv4 loopback address or `localhost`) with
    /// `headers`, and returns the answer; gives up after `timeout` seconds.
    ///
    /// `listenerOwner`: the user the accepting process must run as (the owner of the engine's
    /// configuration, whose API key `headers` carry). Once connected and before a byte is sent,
    /// the kernel's table of this machine's TCP sockets (`/proc/net/tcp`, `tcp6`) is asked who
    /// owns the other end of this very connection: another user's listener on the port — one
    /// that took it while the engine was down — gets nothing.
    static func request(
        _ method: String, host: String, port: UInt16, path: String, headers: [String: String], listenerOwner: uid_t? = nil, timeout: Double = 2
    ) throws(Failure) -> Response {
        let address = host == "localhost" ? "127.0.0.1" : host
        guard address.hasPrefix("127.") else { throw .notLoopback(host) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { throw .notLoopback(host) }
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socketDescriptor >= 0 else { throw .unreachable("cannot open a socket (\(String(cString: strerror(errno))))") }
        defer { close(socketDescriptor) }
        let deadline = Date().addingTimeInterval(timeout)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 {
            guard errno == EINPROGRESS else { throw .unreachable("nothing answers at \(host):\(port) (\(String(cString: strerror(errno))))") }
            try wait(socketDescriptor, for: Int16(POLLOUT), until: deadline, "\(host):\(port)")
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socketDescriptor, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else { throw .unreachable("nothing answers at \(host):\(port) (\(String(cString: strerror(code))))") }
        }
        if let listenerOwner {
            let owner = peerOwner(of: socketDescriptor, port: port)
            guard owner == listenerOwner else { throw .foreignListener(peer: "\(host):\(port)", owner: owner, expected: listenerOwner) }
        }
        var request = "\(method) \(path) HTTP/1.0\r\nHost: \(host):\(port)\r\nConnection: close\r\nContent-Length: 0\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        var bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN || errno == EINTR {
                try wait(socketDescriptor, for: Int16(POLLOUT), until: deadline, "\(host):\(port)")
            } else {
                throw .unreachable("\(host):\(port) closed the connection")
            }
        }
        bytes = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += chunk[0..<count]
                if bytes.count > 16 << 20 { throw .malformed }
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EINTR {
                try wait(socketDescriptor, for: Int16(POLLIN), until: deadline, "\(host):\(port)")
            } else {
                throw .unreachable("\(host):\(port) reset the connection")
            }
        }
        return try parse(bytes)
    }

    /// The user that owns the other end of the connected socket `descriptor` to `port` on this
    /// machine: the socket whose local port is `port` and whose remote port is this socket's own,
    /// in `/proc/net/tcp` or `/proc/net/tcp6` (an IPv4 connection to a dual-stack listener is
    /// there). `nil` when it is not found.
    static func peerOwner(of descriptor: Int32, port: UInt16) -> uid_t? {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        let ours = UInt16(bigEndian: local.sin_port)
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let bytes = try? PrivateFile.read(table, trust: .input("socket table"), limit: 64 << 20)?.bytes else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 7, Self.port(of: fields[1]) == port, Self.port(of: fields[2]) == ours, let uid = uid_t(fields[7]) else { continue }
                return uid
            }
        }
        return nil
    }

    /// The port of an address as the socket tables write it (`0100007F:20C0`).
    private static func port(of field: Substring) -> UInt16? {
        guard let colon = field.lastIndex(of: ":") else { return nil }
        return UInt16(field[field.index(after: colon)...], radix: 16)
    }

    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: Date, _ peer: String) throws(Failure) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0 else { throw .unreachable("\(peer) did not answer in time") }
            let ready = poll(&entry, 1, left)
            if ready > 0 { return }
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { throw .unreachable("\(peer) did not answer in time") }
            throw .unreachable("cannot wait for \(peer) (\(String(cString: strerror(errno))))")
        }
    }

    private static func parse(_ bytes: [UInt8]) throws(Failure) -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else { throw .malformed }
        let head = String(decoding: bytes[0..<end], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { throw .malformed }
        var body = Array(bytes[(end + 4)...])
        if head.lowercased().contains("transfer-encoding: chunked") { body = dechunk(body) }
        return Response(status: status, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { break }
            output += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return output
    }
}
