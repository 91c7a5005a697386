import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// kubelet's atomic writer, for the `mount-swap` workload's child (`RizqBench child-kubelet
/// FOLDER`): each generation written by the steps of `pkg/volume/util/atomic_writer.go` (as
/// `scripts/kubelet-writer` does, in Swift so that the child's own cost stays small) — a new
/// `..<time>.<n>` folder (0700, then 0755), each file written and chmod 0644, `..data_tmp`
/// linked to it, renamed onto `..data`, the top-level links made where missing, the old
/// generation removed. Returns the wall-clock time just before the rename: the swap.
struct KubeletSwapWriter {
    let folder: String

    /// Publishes a generation holding `files` (name → bytes); returns when the switch began.
    func write(_ files: [(name: String, bytes: [UInt8])]) throws -> Int64 {
        let old = Self.readLink(folder + "/..data")
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        gmtime_r(&seconds, &parts)
        let stamp = String(format: "..%04d_%02d_%02d_%02d_%02d_%02d.", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
        var generation = ""
        for _ in 0..<10_000 {
            let candidate = stamp + String(UInt32.random(in: 0...UInt32.max))
            if mkdir(folder + "/" + candidate, 0o700) == 0 {
                generation = candidate
                break
            }
            guard errno == EEXIST else { throw BenchError("mkdir \(candidate): errno \(errno)") }
        }
        guard !generation.isEmpty, chmod(folder + "/" + generation, 0o755) == 0 else { throw BenchError("no generation folder in \(folder)") }
        for file in files {
            let path = folder + "/" + generation + "/" + file.name
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw BenchError("open \(path): errno \(errno)") }
            let written = file.bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == file.bytes.count, chmod(path, 0o644) == 0 else { throw BenchError("write \(path): errno \(errno)") }
        }
        guard symlink(generation, folder + "/..data_tmp") == 0 else { throw BenchError("symlink ..data_tmp: errno \(errno)") }
        let swappedAt = wallClockNanoseconds()
        guard rename(folder + "/..data_tmp", folder + "/..data") == 0 else { throw BenchError("rename ..data_tmp: errno \(errno)") }
        for file in files where Self.readLink(folder + "/" + file.name) == nil {
            _ = symlink("..data/" + file.name, folder + "/" + file.name)
        }
        if let old {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + old)) ?? [] { unlink(folder + "/" + old + "/" + name) }
            rmdir(folder + "/" + old)
        }
        return swappedAt
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
