import CBenchGLib
import Foundation
import RizqSecrets

/// libsecret's file keyring (issue 38), ours (`FileKeyringStore`) against libsecret's own file
/// backend doing the same through its API in this process (`Sources/CBenchGLib/FileKeyring.c`:
/// `secret_password_lookup_binary_sync`, `secret_password_store_binary_sync` with
/// `SECRET_BACKEND=file`), each on a keyring of its own holding the same `items` tokens, keyed
/// with the same `SECRET_FILE_TEST_PASSWORD`:
/// - `file-keyring-get`: a read of one of the tokens (both keep the decoded keyring and the
///   derived key in memory: libsecret loads its file once per process, ours checks the file's
///   version with an `lstat` per read). Floor: reading the file's bytes.
/// - `file-keyring-set`: replacing one token (both rewrite the whole file crash-safely: ours
///   under its lock with a folder `fsync`, libsecret with a backup link). Floor: the durable
///   write of the same bytes.
/// `secret-tool` in a loop is not the peer: its process start and key derivation would hide both.
enum FileKeyringWorkload {
    static let service = "com.rizq.bench.file-keyring"
    static let items = 20
    static let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "k", count: 160) + ".file-keyring"
    static let password = "bench file keyring password"

    struct Setup {
        let ours: FileKeyringStore
        let oursPath: String
    }

    /// Both keyrings, filled; libsecret's backend selected and loaded (this must be the process's
    /// first libsecret use: scripts/bench runs each workload in a process of its own).
    static func setUp(home: BenchHome) throws -> Setup {
        let folder = home.path + "/file-keyring"
        try FileManager.default.createDirectory(atPath: folder + "/ours", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/libsecret", withIntermediateDirectories: true)
        _ = try withGLibError { bench_file_keyring_prepare(folder + "/libsecret/default.keyring", password, $0, $1) == 1 ? true : nil }
        // The same variable keys ours (prepare set it for libsecret).
        let oursPath = folder + "/ours/default.keyring"
        let ours = FileKeyringStore(service: service, location: FileKeyringLocation(path: oursPath))
        for index in 0..<items {
            try ours.setSecret(token + "-\(index)", forAccount: "token-\(index)")
            var error = [CChar](repeating: 0, count: 512)
            try peerStore(token + "-\(index)", account: "token-\(index)", error: &error)
        }
        return Setup(ours: ours, oursPath: oursPath)
    }

    /// One store through libsecret's API (its error message into `error`, kept by the caller so
    /// that the timed loop allocates nothing of ours).
    static func peerStore(_ secret: String, account: String, error: inout [CChar]) throws {
        let stored = Array(secret.utf8).withUnsafeBytes { bytes in
            bench_file_keyring_store(service, account, bytes.baseAddress, bytes.count, &error, error.count)
        }
        guard stored == 1 else { throw BenchError("libsecret's file backend could not store: " + text(error)) }
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func runGet(home: BenchHome, options: Options) throws -> BenchResult {
        let setup = try setUp(home: home)
        let reads = options.vaultReads * 10
        let contenders = [
            Contender("ours") {
                try elapsedNanoseconds {
                    for step in 0..<reads {
                        guard try setup.ours.secretBytes(forAccount: "token-\(step % items)") != nil else { throw BenchError("a token is missing") }
                    }
                } / Double(reads)
            },
            Contender("floor") {
                try elapsedNanoseconds {
                    for _ in 0..<reads { guard try readFile(setup.oursPath) > 0 else { throw BenchError("empty keyring") } }
                } / Double(reads)
            },
            Contender("libsecret") {
                var error = [CChar](repeating: 0, count: 512)
                return try elapsedNanoseconds {
                    for step in 0..<reads {
                        guard bench_file_keyring_lookup(service, "token-\(step % items)", &error, error.count) > 0 else {
                            throw BenchError("libsecret's file backend: " + text(error))
                        }
                    }
                } / Double(reads)
            },
        ]
        let medians = try options.sampler.medians(contenders)
        var result = BenchResult(workload: "file-keyring-get", size: items, ours: medians.of("ours"))
        result.floor("read the keyring file's bytes", medians.of("floor"))
        result.peer("libsecret file backend (secret_password_lookup_binary_sync)", medians.of("libsecret"))
        return result
    }

    /// `open`, `fstat`, a buffer of the file's size, `read`, `close`: what any reader of the
    /// file pays before it looks at a byte.
    static func readFile(_ path: String) throws -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw BenchError("cannot stat \(path): errno \(errno)") }
        let size = Int(info.st_size)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
        defer { buffer.deallocate() }
        return readFully(descriptor, into: buffer, count: size)
    }

    static func runSet(home: BenchHome, options: Options) throws -> BenchResult {
        let setup = try setUp(home: home)
        let disk = try DurableWriteFloor(home: home, suitePath: setup.oursPath)
        let operations = options.durableOperations * 10
        var round = 0
        let contenders = [
            Contender("ours") {
                round += 1
                return try elapsedNanoseconds {
                    for step in 0..<operations { try setup.ours.setSecret(token + "-\(round)-\(step)", forAccount: "token-\(step % items)") }
                } / Double(operations)
            },
            Contender("floor") {
                let bytes = try DurableWriteFloor.bytes(of: setup.oursPath)
                var total = 0.0
                for _ in 0..<operations { total += try disk.write(bytes) }
                return total / Double(operations)
            },
            Contender("libsecret") {
                round += 1
                var error = [CChar](repeating: 0, count: 512)
                return try elapsedNanoseconds {
                    for step in 0..<operations { try peerStore(token + "-\(round)-\(step)", account: "token-\(step % items)", error: &error) }
                } / Double(operations)
            },
        ]
        let medians = try options.durableSampler.medians(contenders)
        var result = BenchResult(workload: "file-keyring-set", size: items, ours: medians.of("ours"))
        result.floor("durable write of the same keyring bytes", medians.of("floor"))
        result.peer("libsecret file backend (secret_password_store_binary_sync)", medians.of("libsecret"))
        return result
    }
}
