#if CLI
import ArgumentParser

/// A command whose plain lines (``PlainWords``) are read without argument-parser: its options
/// and flags by long name, what a line asks of it (its ``Request``), and how it does that.
///
/// The declaration stays the one argument-parser reads, and the command's `run()` is
/// `Self.run(request)`: `DirectCommandLineCoverageTests` checks that ``plainOptions`` and
/// ``plainFlags`` name exactly the options and flags argument-parser lists for the command
/// (`--experimental-dump-help`), and that every line read this way asks for the very
/// ``request`` argument-parser's parse of the same line gives.
protocol PlainLineCommand: ParsableCommand {
    /// What a line asks of the command: its options' and arguments' values.
    associatedtype Request
    /// The long names, without dashes, of the options that take a value.
    static var plainOptions: Set<String> { get }
    /// The long names, without dashes, of the flags.
    static var plainFlags: Set<String> { get }
    /// What the parsed command asks for.
    var request: Request { get }
    /// What a plain line asks for, as argument-parser would read it, or `nil` when the words are
    /// not a line this command takes (argument-parser then reads them, and explains).
    static func request(plain words: PlainWords) -> Request?
    /// Does what `request` asks: the whole of the command's `run()`.
    static func run(_ request: Request) throws
}
#endif
