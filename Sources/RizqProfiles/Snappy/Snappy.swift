#if Secrets
import CProfileLibraries

/// Snappy decompression through Debian's libsnappy (its C API, loaded at the first use), for the profile readers that
/// store compressed values (Firefox's LSNG `compression_type` 1).
package enum Snappy {
    /// Why bytes could not be decompressed.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not valid snappy data.
        case invalidInput
        /// The data would decompress to more than the limit.
        case tooLarge(size: Int, limit: Int)
        /// libsnappy cannot be loaded (why, and what to install).
        case unavailable(String)

        /// What went wrong.
        package var description: String {
            switch self {
            case .invalidInput: return "not valid snappy-compressed data"
            case .tooLarge(let size, let limit): return "it decompresses to \(size) bytes, more than the \(limit) allowed"
            case .unavailable(let problem): return problem
            }
        }
    }

    /// The most a value may decompress to: 64 MiB (a browser allows an origin about 5 MiB).
    package static let maximumSize = 64 << 20

    /// The decompressed bytes of `compressed`.
    /// - Throws: ``Failure``.
    package static func decompress(_ compressed: [UInt8], limit: Int = maximumSize) throws(Failure) -> [UInt8] {
        if let problem = ProfileLibrary.snappy.loadProblem() { throw .unavailable(problem) }
        var length = 0
        let sized = compressed.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { rizq_snappy_uncompressed_length($0.baseAddress, $0.count, &length) }
        }
        guard sized == SNAPPY_OK else { throw .invalidInput }
        guard length <= limit else { throw .tooLarge(size: length, limit: limit) }
        var output = [UInt8](repeating: 0, count: length)
        let status = compressed.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { source in
                output.withUnsafeMutableBufferPointer { target in
                    target.withMemoryRebound(to: CChar.self) { rizq_snappy_uncompress(source.baseAddress, source.count, $0.baseAddress, &length) }
                }
            }
        }
        guard status == SNAPPY_OK else { throw .invalidInput }
        return Array(output.prefix(length))
    }
}
#endif
