import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes on a file descriptor, with the retries a short count or a signal asks
/// for: the one copy of these loops for suite files, profile copies and the command line's output.
package enum DescriptorIO {
    /// Writes every byte of `bytes` to `descriptor`, however many calls it takes.
    /// - Throws: the ``Errno`` of the first call that failed (a full disk, a closed pipe, …);
    ///   part of the bytes may have been written.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(Errno) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = SystemCalls.write(descriptor, base + offset, bytes.count - offset)
            guard written >= 0 else { throw .current }
            offset += written
        }
    }

    /// Writes every byte of `bytes` (an array, `Data`) to `descriptor`; see
    /// ``writeAll(_:to:)-(UnsafeRawBufferPointer,_)``.
    package static func writeAll<Bytes: ContiguousBytes>(_ bytes: Bytes, to descriptor: Int32) throws(Errno) {
        let failure = bytes.withUnsafeBytes { buffer -> Errno? in
            do throws(Errno) {
                try writeAll(buffer, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Reads into `buffer` once (retrying a call a signal interrupted); `0` at the end of the file.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let count = SystemCalls.read(descriptor, base, buffer.count)
        guard count >= 0 else { throw .current }
        return count
    }

    /// Reads once into `bytes` from `offset` on (retrying a call a signal interrupted); `0` at
    /// the end of the file.
    package static func read(_ descriptor: Int32, into bytes: inout [UInt8], from offset: Int) throws(Errno) -> Int {
        let outcome = bytes.withUnsafeMutableBytes { buffer -> Result<Int, Errno> in
            do throws(Errno) {
                return .success(try read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...])))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Reads `descriptor` to its end: a buffer of `sizeHint` bytes (the size `fstat` gave) plus
    /// one, to see the end in the same call, grown as the file grows.
    /// - Throws: ``Errno/fileTooLarge`` once more than `limit` bytes were read (a file that
    ///   grows while it is read); the ``Errno`` of a failed read.
    package static func readToEnd(_ descriptor: Int32, sizeHint: Int, limit: Int) throws(Errno) -> [UInt8] {
        // Not zeroed first: read(2) writes the bytes, and what it did not write is cut off below
        // unread (zeroing a 2.2 MB suite file's buffer was a tenth of the instructions of opening it).
        let firstCapacity = min(max(sizeHint, 0), limit) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: firstCapacity) { _, initialized in initialized = firstCapacity }
        var count = 0
        while true {
            if count > limit { throw .fileTooLarge }
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(max(4096, bytes.count), limit + 1))) }
            let got = try read(descriptor, into: &bytes, from: count)
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// `fdatasync` of `descriptor`: what was written to it is on the device (a write-back error
    /// the kernel reports only now comes back here).
    package static func syncData(_ descriptor: Int32) throws(Errno) {
        guard SystemCalls.fdatasync(descriptor) == 0 else { throw .current }
    }

    /// `fsync` of the folder `path`, so that a rename, a new name or a removal in it survives a
    /// crash.
    package static func syncFolder(_ path: String) throws(Errno) {
        let descriptor = SystemCalls.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .current }
        defer { close(descriptor) }
        guard SystemCalls.fsync(descriptor) == 0 else { throw .current }
    }
}
