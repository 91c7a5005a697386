#if Secrets
/// Where something is in an input file: byte offset, line and column.
public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset.
    public var offset: Int
    /// One-based line.
    public var line: Int
    /// One-based column, in characters (Unicode scalars) of the line.
    public var column: Int

    /// A position given directly.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The position of byte `offset` in `bytes` (counting lines and columns up to it).
    init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count scalars, not bytes: continuation bytes do not start a new column.
                column += 1
            }
            index += 1
        }
        self.init(offset: offset, line: line, column: column)
    }

    /// "line L, column C (byte O)".
    public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
#endif
