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
            offset += try Errno.retryingOnInterrupt { write(descriptor, base + offset, bytes.count - offset) }
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
        return try Errno.retryingOnInterrupt { Glibc.read(descriptor, base, buffer.count) }
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
}
