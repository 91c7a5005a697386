#if CLI
/// An aligned text table: columns padded to their widest cell, the last one left ragged.
package struct Table {
    package var header: [String]
    package var rows: [[String]]

    /// A table of `rows` under `header`.
    package init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// The table, one line per row after the header; empty when there are no rows.
    package var text: String {
        guard !rows.isEmpty else { return "" }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], Self.printable(cell).count)
            }
        }
        var output = ""
        for row in [header] + rows {
            let cells = row.enumerated().map { column, cell -> String in
                let shown = Self.printable(cell)
                guard column < row.count - 1 else { return shown }
                return shown + String(repeating: " ", count: widths[column] - shown.count)
            }
            output += cells.joined(separator: "  ") + "\n"
        }
        return output
    }

    /// Control characters (a newline in a key) shown escaped, so that one row stays one line.
    private static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        return text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
#endif
