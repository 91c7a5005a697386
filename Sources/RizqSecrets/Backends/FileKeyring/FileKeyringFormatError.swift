#if Secrets
/// Why bytes that should be a libsecret file keyring (or one of its items) are refused: the part
/// that is wrong (`field`, e.g. "item 3's hashed attribute 1's name") and what is wrong with it.
///
/// The decoder checks every size, offset and count it reads against the bytes it has before it
/// uses them, so a damaged or hostile file is refused with this error and never traps. Nothing
/// in a message is secret: the parts named are the file's structure, not its contents.
package struct FileKeyringFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was found.
    package enum Problem: Sendable, Equatable {
        /// The file is shorter than the 16-byte magic, or its magic is not
        /// `"GnomeKeyring\n\r\0\n"`: it is not a keyring file at all.
        case notAKeyring
        /// The magic is right but the version bytes are not `01 00` (`00 00` is gnome-keyring's
        /// own older format, which libsecret does not read either).
        case unsupportedVersion(major: UInt8, minor: UInt8)
        /// The part needs `needed` bytes, and only `available` are left where it should be.
        case truncated(needed: Int, available: Int)
        /// A framing offset points outside its container (or before the part it ends).
        case offsetOutOfRange(offset: UInt64, limit: Int)
        /// An array's table of offsets does not divide into whole offsets.
        case offsetTableMisaligned(tableSize: Int, width: Int)
        /// A string does not end with its NUL byte.
        case stringNotTerminated
        /// A string holds a NUL byte before its end.
        case stringHasNul
        /// A string is not valid UTF-8.
        case stringNotUTF8
        /// The salt-size field does not say how long the salt is.
        case saltSizeMismatch(declared: UInt32, actual: Int)
        /// The salt is empty: no key can be derived from it.
        case emptySalt
        /// The PBKDF2 iteration count is outside what is accepted (zero derives nothing; a huge
        /// count would keep the process busy for hours).
        case iterationsOutOfRange(count: UInt32, maximum: UInt32)
        /// More elements than are accepted (a bound on what a hostile file makes us hold).
        case tooMany(count: Int, maximum: Int)
        /// An item's encrypted blob is not ciphertext (a multiple of 16, at least 16) followed by
        /// a 16-byte IV and a 32-byte MAC.
        case blobLength(Int)
    }

    /// The part of the file that is wrong.
    package var field: String
    /// What is wrong with it.
    package var problem: Problem

    /// The error for `field`.
    package init(field: String, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// "the salt: the salt-size field says 40 bytes, the salt holds 32".
    package var description: String {
        "\(field): " + phrase
    }

    private var phrase: String {
        switch problem {
        case .notAKeyring:
            return "not a libsecret keyring file (no \"GnomeKeyring\" magic)"
        case .unsupportedVersion(let major, let minor):
            return major == 0 && minor == 0
                ? "version 0.0, gnome-keyring's own format (a login.keyring), not libsecret's file keyring (1.0)"
                : "version \(major).\(minor); only 1.0 is read"
        case .truncated(let needed, let available):
            return "needs \(needed) bytes, only \(available) are there (the file is cut short or damaged)"
        case .offsetOutOfRange(let offset, let limit):
            return "a framing offset says \(offset), outside the \(limit) bytes it may point into"
        case .offsetTableMisaligned(let tableSize, let width):
            return "its table of offsets is \(tableSize) bytes, not a whole number of \(width)-byte offsets"
        case .stringNotTerminated:
            return "a string without its terminating NUL"
        case .stringHasNul:
            return "a string holding a NUL byte"
        case .stringNotUTF8:
            return "a string that is not UTF-8"
        case .saltSizeMismatch(let declared, let actual):
            return "the salt-size field says \(declared) bytes, the salt holds \(actual)"
        case .emptySalt:
            return "an empty salt"
        case .iterationsOutOfRange(let count, let maximum):
            return "\(count) PBKDF2 iterations, outside 1...\(maximum)"
        case .tooMany(let count, let maximum):
            return "\(count) elements, more than the \(maximum) accepted"
        case .blobLength(let length):
            return "\(length) bytes, not AES blocks (at least one) followed by a 16-byte IV and a 32-byte MAC"
        }
    }
}
#endif
