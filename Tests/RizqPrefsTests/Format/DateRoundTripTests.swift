import Foundation
import RizqJSON
import XCTest
@testable import RizqPrefs

/// Every `Date` a suite accepts reads back as the very same `Date` (bit for
/// bit) in a fresh process, across the years −999,999 to 999,999; dates beyond are refused at
/// `set` with an error that says so; hand-written dates (seven fractional digits, a leap second)
/// read as dates; every file written before reads as it did.
final class DateRoundTripTests: XCTestCase {
    private static let first = ISO8601Micro.parse("-999999-01-01T00:00:00Z")
    private static let last = ISO8601Micro.parse("+999999-12-31T23:59:59Z")

    /// The dates of the issue, the ends of the range, and fractions finer than a microsecond.
    private static let edgeDates: [(key: String, date: Date)] = {
        var dates: [(String, Date)] = [
            ("year 10000", Date(timeIntervalSince1970: 253_402_300_800)),
            ("year -1", Date(timeIntervalSince1970: -62_198_755_200)),
            ("year -5000", Date(timeIntervalSince1970: -219_950_000_000.25)),
            ("1e13", Date(timeIntervalSince1970: 1e13)),
            ("-1e13", Date(timeIntervalSince1970: -1e13)),
            ("now", Date()),
            ("distant future", .distantFuture),
            ("distant past", .distantPast),
            ("smallest positive", Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude)),
            ("just before 2001", Date(timeIntervalSinceReferenceDate: -1e-9)),
            ("before 1970 with a fraction", Date(timeIntervalSince1970: -1_000_000.123_456_789)),
            ("last instant of 9999", Date(timeIntervalSince1970: 253_402_300_799.999_9)),
        ]
        if let first { dates.append(("first", first)) }
        if let last { dates.append(("last", last.addingTimeInterval(0.5))) }
        return dates
    }()

    func testEveryDateReadsBackBitForBitInAFreshProcess() throws {
        XCTAssertNotNil(Self.first)
        XCTAssertNotNil(Self.last)
        let root = TemporaryRoot()
        let store = try root.store()
        for (key, date) in Self.edgeDates {
            XCTAssertNoThrow(try store.put(date, forKey: key), key)
        }
        store.set([Date(timeIntervalSince1970: 1e13), Date()], forKey: "array of dates")
        try store.flush()

        let output = try Child.run(root, "group.com.rizq.test", ["read"] + Self.edgeDates.map { "\($0.key):datebits" })
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.lines, Self.edgeDates.map { "\($0.date.timeIntervalSinceReferenceDate.bitPattern)" })
        guard case .dictionary(let fresh) = try JSONReader.parse(try XCTUnwrap(root.fileBytes())) else { return XCTFail("not an object") }
        XCTAssertEqual(fresh["array of dates"], store.prefValue(forKey: "array of dates"))

        // Readable: ISO 8601, with the expanded year (sign and six digits) outside 0000–9999.
        let text = String(decoding: try XCTUnwrap(root.fileBytes()), as: UTF8.self)
        for expected in [
            #""year 10000": {"$date": "+010000-01-01T00:00:00Z"}"#, #""year -1": {"$date": "-000001-01-01T00:00:00Z"}"#,
            #""1e13": {"$date": "+318857-05-20T17:46:40Z"}"#, #""distant future": {"$date": "4001-01-01T00:00:00Z"}"#,
        ] {
            XCTAssertTrue(text.contains(expected), "\(expected) in\n\(text)")
        }
        // Foundation's own reader sees plain JSON.
        XCTAssertNotNil(try root.fileObject()["1e13"])
    }

    func testRandomDatesAcrossTheWholeRangeRoundTripExactly() throws {
        let first = try XCTUnwrap(Self.first).timeIntervalSinceReferenceDate
        let last = try XCTUnwrap(Self.last).timeIntervalSinceReferenceDate
        var generator = SystemRandomNumberGenerator()
        for round in 0..<10_000 {
            let reference: Double
            switch round % 4 {
            case 0: reference = Double.random(in: first...last, using: &generator)
            case 1: reference = Double.random(in: -4e9...4e9, using: &generator)  // the clock's range, finest fractions
            case 2: reference = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))  // any magnitude
            default: reference = Double(Int64.random(in: Int64(first)...Int64(last), using: &generator)) + Double(Int.random(in: 0..<1_000_000)) / 1_000_000
            }
            let date = Date(timeIntervalSinceReferenceDate: reference)
            let stored = PrefValue.date(date)
            guard stored.isRepresentableInJSON else {
                XCTAssertTrue(!reference.isFinite || reference < first || reference > last + 1, "\(reference) was refused inside the range")
                XCTAssertThrowsError(try JSONWriter.bytes(stored), "\(reference)")
                continue
            }
            let text = try JSONWriter.string(stored)
            let back = try JSONReader.parse(text)
            guard case .date(let read) = back else { return XCTFail("\(reference) wrote \(text), which reads as \(back.kindName)") }
            XCTAssertEqual(read.timeIntervalSinceReferenceDate.bitPattern, reference.bitPattern, "\(reference) wrote \(text)")
            XCTAssertEqual(try JSONWriter.string(back), text, "the text is stable")
        }
    }

    func testHandWrittenDatesReadAsDatesAndWriteBackReadably() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        let handWritten = """
            {
              "seven digits": {"$date": "9999-12-31T23:59:59.9999999Z"},
              "leap second": {"$date": "2016-12-31T23:59:60Z"},
              "leap second at the end of 9999": {"$date": "9999-12-31T23:59:60Z"},
              "expanded": {"$date": "+010000-01-01T00:00:00Z"},
              "negative": {"$date": "-000001-06-01T12:00:00+02:00"},
              "beyond the range": {"$date": "+1000000-01-01T00:00:00Z"}
            }
            """
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: Data(handWritten.utf8))
        let store = try root.store()
        // A Date so far out is exact to about 30 µs: the nearest one is the first instant of 10000.
        XCTAssertEqual(store.value(forKey: "seven digits", as: Date.self), Date(timeIntervalSince1970: 253_402_300_800))
        XCTAssertEqual(store.value(forKey: "leap second", as: Date.self), ISO8601Micro.parse("2017-01-01T00:00:00Z"), "a Date has no leap seconds: the next instant")
        XCTAssertEqual(store.value(forKey: "leap second at the end of 9999", as: Date.self), Date(timeIntervalSince1970: 253_402_300_800))
        XCTAssertEqual(store.value(forKey: "expanded", as: Date.self), Date(timeIntervalSince1970: 253_402_300_800))
        XCTAssertNotNil(store.value(forKey: "negative", as: Date.self))
        XCTAssertEqual(store.prefValue(forKey: "beyond the range"), ["$date": "+1000000-01-01T00:00:00Z"], "not a date a suite can hold: kept as written")

        store.set(1, forKey: "another key")
        try store.flush()
        let keys = ["seven digits", "leap second", "leap second at the end of 9999", "expanded", "negative"]
        let output = try Child.run(root, "group.com.rizq.test", ["read"] + keys.map { "\($0):datebits" } + ["beyond the range:json"])
        XCTAssertEqual(output.lines, keys.map { key in
            store.value(forKey: key, as: Date.self).map { "\($0.timeIntervalSinceReferenceDate.bitPattern)" } ?? "missing \(key)"
        } + [#"{"$date":"+1000000-01-01T00:00:00Z"}"#])
        let text = String(decoding: try XCTUnwrap(root.fileBytes()), as: UTF8.self)
        XCTAssertTrue(text.contains(#""leap second at the end of 9999": {"$date": "+010000-01-01T00:00:00Z"}"#), text)
        XCTAssertTrue(text.contains(#""seven digits": {"$date": "+010000-01-01T00:00:00Z"}"#), text)
        XCTAssertTrue(text.contains(#""negative": {"$date": "-000001-06-01T10:00:00Z"}"#), text)
    }

    func testDatesBeyondTheRangeAreRefusedAtSetAndNothingIsWritten() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(Date(timeIntervalSince1970: 0), forKey: "when")
        try store.flush()
        let before = root.fileBytes()
        for date in [
            Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e14), Date(timeIntervalSinceReferenceDate: .infinity),
            Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .greatestFiniteMagnitude),
        ] {
            XCTAssertThrowsError(try store.put(date, forKey: "when")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("outside the years -999999 to 999999") || message.contains("not a point in time"), message)
                XCTAssertTrue(message.contains("nothing was written"), message)
            }
            store.set(date, forKey: "when")  // logged and refused
            XCTAssertThrowsError(try store.put(["nested": .array([.date(date)])] as PrefValue, forKey: "other")) { error in
                XCTAssertTrue("\(error)".contains("(at /nested/0)"), "\(error)")
            }
        }
        XCTAssertEqual(store.value(forKey: "when", as: Date.self), Date(timeIntervalSince1970: 0))
        XCTAssertNil(store.prefValue(forKey: "other"))
        try store.flush()
        XCTAssertEqual(root.fileBytes(), before)
    }

    func testADictionaryThatWouldReadBackAsADateOrDataIsRefused() throws {
        let store = try TemporaryRoot().store()
        XCTAssertThrowsError(try store.put(["$date": "2026-01-01T00:00:00Z"] as PrefValue, forKey: "k")) { error in
            XCTAssertTrue("\(error)".contains("reads back as a Date"), "\(error)")
        }
        XCTAssertThrowsError(try store.put(["list": [["$data": "AA=="]]] as PrefValue, forKey: "k"))
        // Anything the reader keeps as a dictionary is fine: another key, or a payload that is not one.
        XCTAssertNoThrow(try store.put(["$date": "yesterday"] as PrefValue, forKey: "a"))
        XCTAssertNoThrow(try store.put(["$date": "2026-01-01T00:00:00Z", "by": "hand"] as PrefValue, forKey: "b"))
        XCTAssertNoThrow(try store.put(["$date": .int(3)] as PrefValue, forKey: "c"))
    }

    /// Every text the writer of 5ad1572 produced (years 0000–9999, up to six fractional digits)
    /// reads as the reader of that release read it, bit for bit.
    func testEveryDateTextWrittenBeforeReadsTheSame() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40_000 {
            let seconds = Double.random(in: -62_167_219_200...253_402_300_799, using: &generator)
            let old = OldISO8601.format(Date(timeIntervalSince1970: seconds))
            let expected = OldISO8601.parse(old)
            XCTAssertNotNil(expected, old)
            XCTAssertEqual(ISO8601Micro.parse(old)?.timeIntervalSinceReferenceDate.bitPattern, expected?.timeIntervalSinceReferenceDate.bitPattern, old)
        }
        for text in ["2026-11-22T15:47:00.5+02:00", "1969-12-31 23:59:59.000001z", "0000-01-01T00:00:00Z", "2016-12-31T23:59:60.25Z"] {
            XCTAssertEqual(ISO8601Micro.parse(text), OldISO8601.parse(text), text)
        }
    }
}

/// The date reader and writer of 5ad1572, kept as the oracle of what files written before mean.
private enum OldISO8601 {
    static func format(_ date: Date) -> String {
        var total = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var fraction = total % 1_000_000
        total /= 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            total -= 1
        }
        let (days, secondsOfDay) = floorDivide(total, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondsOfDay / 3600, 2) + ":" + pad(secondsOfDay % 3600 / 60, 2) + ":" + pad(secondsOfDay % 60, 2)
        if fraction != 0 {
            var digits = pad(fraction, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let digit = bytes[index]
                guard digit >= 48, digit <= 57 else { return nil }
                value = value * 10 + Int64(digit - 48)
                index += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20
        else { return nil }
        index += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if expect(0x5A) || expect(0x7A) {
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign: Int64 = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let offsetHours = number(2) else { return nil }
            _ = expect(0x3A)
            guard let offsetMinutes = number(2) else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let whole = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        let micros = (fraction * 1_000_000).rounded()
        return Date(timeIntervalSince1970: (Double(whole) * 1_000_000 + micros) / 1_000_000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var quotient = a / b
        var remainder = a % b
        if remainder < 0 {
            remainder += b
            quotient -= 1
        }
        return (quotient, remainder)
    }

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }
}
