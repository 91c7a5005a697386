import Foundation
import RizqJSON

extension JSONReader {
    /// Parses one JSON text (surrounded only by white space) into a value.
    /// - Throws: ``Failure`` with the position of the first problem.
    package static func parse(_ data: some ContiguousBytes) throws(Failure) -> PrefValue {
        try parseReporting(data).value
    }

    /// Parses like ``parse(_:)`` and also returns the keys that were repeated in the top-level
    /// object.
    package static func parseReporting(_ data: some ContiguousBytes) throws(Failure) -> (value: PrefValue, duplicateKeys: [String]) {
        let read = data.withUnsafeBytes { raw in
            JSONReader.read(raw.bindMemory(to: UInt8.self), into: PrefValueBuilder.self, loneSurrogates: .reject)
        }
        let result = try read.get()
        return (result.value, result.duplicateKeys)
    }

    /// Parses like ``parse(_:)`` a format that keeps the values of a suite `envelope` levels
    /// deeper than a suite file does (device sync's replicas and state keep each value two
    /// objects deeper): those levels do not count against the depth limit, so that every value a
    /// suite holds (``PrefValue/maximumNesting`` levels) reads back from it.
    package static func parse(_ data: some ContiguousBytes, envelope: Int) throws(Failure) -> PrefValue {
        let read = data.withUnsafeBytes { raw in
            JSONReader.read(raw.bindMemory(to: UInt8.self), into: PrefValueBuilder.self, loneSurrogates: .reject, envelope: envelope)
        }
        return try read.get().value
    }

    /// Parses a Swift string as JSON.
    package static func parse(_ text: String) throws(Failure) -> PrefValue {
        try parse(Array(text.utf8))
    }
}
