import Foundation
import RizqJSON

extension JSONReader {
    /// Parses like ``parseReporting(_:)``, except that a top-level object is always a
    /// `.dictionary`, as in a suite file: its keys are the suite's keys, so `{"$date": "…"}` is a
    /// suite with one key, not a date. What `rizq-prefs import` reads (the format `export` writes).
    ///
    /// ```swift
    /// let (value, _) = try JSONReader.parseSuiteDocument(Array(#"{"$date": "2026-11-22T13:47:00Z"}"#.utf8))
    /// // value == .dictionary(["$date": "2026-11-22T13:47:00Z"])
    /// ```
    /// - Throws: ``Failure`` with the position of the first problem.
    package static func parseSuiteDocument(_ data: some ContiguousBytes) throws(Failure) -> (value: PrefValue, duplicateKeys: [String]) {
        let read = data.withUnsafeBytes { raw -> Result<(PrefValue, [String]), Failure> in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), loneSurrogates: .reject)
            do throws(Failure) {
                let value = try reader.readDocument { reader throws(Failure) -> (PrefValue, [String]) in
                    guard reader.bytes[reader.index] == UInt8(ascii: "{") else {
                        return (try reader.readValue(PrefValueBuilder.self, topLevel: true), [])
                    }
                    var members = PrefValueBuilder.makeMembers()
                    var duplicates: [String] = []
                    _ = try reader.readMembers(PrefValueBuilder.self) { key, keyOffset, value in
                        if PrefValueBuilder.add(key: key, keyOffset: keyOffset, value: value, to: &members) { duplicates.append(key) }
                    }
                    return (.dictionary(members), duplicates)
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        let (value, duplicates) = try read.get()
        return (value, duplicates)
    }
}
