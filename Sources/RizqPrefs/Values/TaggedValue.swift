import Foundation

/// The tagged JSON forms of the values JSON has no literal for: `{"$date": …}`, `{"$data": …}`
/// and `{"$double": …}` (an infinity or NaN: `"inf"`, `"-inf"`, `"nan"`). The reader turns a
/// one-key object with a valid payload into `.date`, `.data` or `.double`; anything else (a
/// malformed payload, a second key) stays an ordinary dictionary, so a hand edit that breaks a
/// tag loses nothing.
enum TaggedValue {
    static let dateTag = "$date"
    static let dataTag = "$data"
    static let doubleTag = "$double"

    /// The typed value a one-key tagged object stands for, or `nil` when it is not one.
    static func decode(key: String, payload: PrefValue) -> PrefValue? {
        guard case .string(let text) = payload else { return nil }
        switch key {
        case dateTag: return ISO8601Micro.parse(text).map(PrefValue.date)
        case dataTag: return Data(base64Encoded: text).map(PrefValue.data)
        case doubleTag: return nonFinite(text).map(PrefValue.double)
        default: return nil
        }
    }

    /// The payload of a date; `nil` when it lies outside ``ISO8601Micro/yearRange``.
    static func encode(date: Date) -> String? { ISO8601Micro.format(date) }
    static func encode(data: Data) -> String { data.base64EncodedString() }

    /// The payload of an infinity or NaN (`number` is not finite): `inf`, `-inf` or `nan`.
    static func encode(nonFinite number: Double) -> String {
        number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf")
    }

    /// The number a `$double` payload stands for; `nil` for any other text.
    static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "inf": return .infinity
        case "-inf": return -.infinity
        case "nan": return .nan
        default: return nil
        }
    }

    /// The Swift type a tag stands for, for messages.
    static func typeName(of tag: String) -> String {
        switch tag {
        case dateTag: return "Date"
        case dataTag: return "Data"
        default: return "Double"
        }
    }

    /// The tag of a dictionary that the reader would take for a tagged value (its only key is
    /// `$date`, `$data` or `$double`, holding a valid payload), or `nil`: such a dictionary
    /// cannot be stored, since it would read back as a `Date`, `Data` or `Double`.
    static func lookalikeTag(_ entries: [String: PrefValue]) -> String? {
        guard entries.count == 1, let (key, payload) = entries.first, key.hasPrefix("$"),
            decode(key: key, payload: payload) != nil
        else { return nil }
        return key
    }
}

/// ISO 8601 in UTC, written and parsed by hand (Foundation's formatters keep only milliseconds
/// and are slow), such that every `Date` a suite can hold reads back as the very same `Date`:
///
/// - Years 0000–9999 are written `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, with up to six fractional
///   digits when the microseconds read back as the same `Date` (the form files have always had).
///   Otherwise — a `Date()` taken from the clock has a finer fraction — with the fewest digits
///   from seven up that read back exactly (`2026-11-23T11:40:20.1234567Z`).
/// - Years outside 0000–9999 use ISO 8601's expanded form, as ECMAScript writes it: a sign and six
///   digits (`+010000-01-01T00:00:00Z`, `-000001-12-31T23:59:59Z`); year 0 is 1 BC.
/// - Dates outside ``yearRange`` (±999,999 years, about ±3.2 × 10¹³ seconds from 1970) cannot be
///   written: ``format(_:)`` returns `nil` and the store refuses them at `set`.
///
/// The parser takes that form, offsets (`+02:00`), a leap second `23:59:60` (read as the first
/// instant of the next minute: a `Date` has no leap seconds), and any number of fractional
/// digits; up to six are read exactly as before, so every file ever written reads the same.
package enum ISO8601Micro {
    /// The years a stored date may fall in: ISO 8601's expanded form with six digits.
    static let yearRange: ClosedRange<Int64> = -999_999...999_999
    /// Seconds from 1970 to the reference date of `Date` (2001-01-01T00:00:00Z).
    private static let referenceOffset: Int64 = 978_307_200
    /// The first and last whole seconds (since 1970) of ``yearRange``.
    private static let earliestSecond = days(fromCivil: yearRange.lowerBound, 1, 1) * 86_400
    private static let latestSecond = days(fromCivil: yearRange.upperBound, 12, 31) * 86_400 + 86_399

    /// Whether `date` can be written (see ``format(_:)``).
    static func canFormat(_ date: Date) -> Bool {
        wholeSeconds(of: date.timeIntervalSinceReferenceDate) != nil
    }

    /// Why `date` cannot be stored, for messages; `nil` when it can.
    static func problem(with date: Date) -> String? {
        if canFormat(date) { return nil }
        let seconds = date.timeIntervalSince1970
        if !seconds.isFinite { return "the date is not a point in time (\(seconds) s from 1970)" }
        return "the date \(date.timeIntervalSince1970) s from 1970 lies outside the years \(yearRange.lowerBound) to \(yearRange.upperBound) that a suite can hold"
    }

    /// The text of `date`, which ``parse(_:)`` reads back as the same `Date`; `nil` when the
    /// date lies outside ``yearRange`` or is not finite.
    static func format(_ date: Date) -> String? {
        let reference = date.timeIntervalSinceReferenceDate
        guard let whole = wholeSeconds(of: reference) else { return nil }
        let micros = Int64(((reference - whole) * 1_000_000).rounded())
        if micros < 1_000_000 {
            var text = civilText(Int64(whole) + referenceOffset)
            if micros != 0 {
                var digits = pad(micros, 6)
                while digits.hasSuffix("0") { digits.removeLast() }
                text += "." + digits
            }
            text += "Z"
            if parse(text)?.timeIntervalSinceReferenceDate == reference { return text }
        }
        // Seven fractional digits and more are read as one decimal number (see `exactValue`):
        // the shortest decimal that reads back as `reference` gives the fewest digits.
        let (second, digits) = secondAndFraction(ofDecimal: reference)
        return civilText(second + referenceOffset) + "." + digits + "Z"
    }

    /// The whole second (since the reference date, rounded down) and at least seven fractional
    /// digits of the shortest decimal that reads back as `reference`.
    private static func secondAndFraction(ofDecimal reference: Double) -> (Int64, String) {
        // Swift's shortest round-trip form: "-1.5", "785512020.1234567", "1e-200", "1.2e+16".
        let shortest = reference.magnitude.description
        var mantissa = shortest
        var exponent = 0
        if let e = shortest.firstIndex(of: "e") {
            mantissa = String(shortest[..<e])
            exponent = Int(shortest[shortest.index(after: e)...]) ?? 0
        }
        let point = mantissa.firstIndex(of: ".") ?? mantissa.endIndex
        var digits = mantissa.filter { $0 != "." }
        var pointPosition = mantissa.distance(from: mantissa.startIndex, to: point) + exponent
        if pointPosition <= 0 {
            digits = String(repeating: "0", count: 1 - pointPosition) + digits
            pointPosition = 1
        }
        if pointPosition > digits.count { digits += String(repeating: "0", count: pointPosition - digits.count) }
        let integer = Int64(digits.prefix(pointPosition)) ?? 0
        var fraction = String(digits.dropFirst(pointPosition))
        if fraction.count < 7 { fraction += String(repeating: "0", count: 7 - fraction.count) }
        guard reference < 0 else { return (integer, fraction) }
        // -(I + 0.F) = (-I - 1) + (1 - 0.F)
        if fraction.allSatisfy({ $0 == "0" }) { return (-integer, fraction) }
        return (-integer - 1, complement(fraction))
    }

    /// The digits of 1 − 0.`digits`, as many as `digits` has (which are not all zero).
    private static func complement(_ digits: String) -> String {
        var result = Array(digits.utf8.map { 9 - ($0 - 48) })
        // 0.999…9 − 0.d + 0.000…1: add one in the last place.
        var index = result.count - 1
        while index >= 0 {
            if result[index] == 9 {
                result[index] = 0
                index -= 1
            } else {
                result[index] += 1
                break
            }
        }
        return String(decoding: result.map { $0 + 48 }, as: UTF8.self)
    }

    /// `second` (since the reference date) plus 0.`digits`, as one correctly rounded Double.
    private static func exactValue(second: Int64, digits: String) -> Double? {
        if second >= 0 { return Double("\(second).\(digits)") }
        if digits.utf8.allSatisfy({ $0 == 48 }) { return Double(second) }
        // second + 0.D = -((-second - 1) + (1 - 0.D))
        return Double("-\(-second - 1).\(complement(digits))")
    }

    /// `floor(reference)` when its second lies within ``yearRange``, else `nil`.
    private static func wholeSeconds(of reference: Double) -> Double? {
        guard reference.isFinite else { return nil }
        let whole = reference.rounded(.down)
        guard whole >= Double(earliestSecond - referenceOffset), whole <= Double(latestSecond - referenceOffset) else { return nil }
        return whole
    }

    /// `YYYY-MM-DDTHH:MM:SS` (or the expanded year) of a second since 1970.
    private static func civilText(_ second: Int64) -> String {
        let (days, secondsOfDay) = floorDivide(second, 86_400)
        let (year, month, day) = civil(fromDays: days)
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(year.magnitude, 6)
        var text = yearText + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondsOfDay / 3600, 2) + ":" + pad(secondsOfDay % 3600 / 60, 2) + ":" + pad(secondsOfDay % 60, 2)
        return text
    }

    /// Parses `[±Y]YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH[:]MM)`; `nil` for anything else, and for
    /// a date outside ``yearRange``.
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
        // An expanded year: a sign and four to six digits.
        var yearSign: Int64 = 1
        var yearDigits = 4
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            yearSign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            yearDigits = bytes[index...].prefix { $0 >= 48 && $0 <= 57 }.count
            guard (4...6).contains(yearDigits) else { return nil }
        }
        guard let unsignedYear = number(yearDigits), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20
        else { return nil }
        let year = yearSign * unsignedYear
        index += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        var fractionDigits = 0
        var fractionStart = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            fractionStart = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            fractionDigits = index - fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if expect(0x5A) || expect(0x7A) {
            // UTC
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
        let days = days(fromCivil: year, month, day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        guard whole >= earliestSecond, whole <= latestSecond else { return nil }
        if fractionDigits > 6 {
            // Exactly: the whole second and its fraction read as one decimal number.
            let digits = String(decoding: bytes[fractionStart..<(fractionStart + fractionDigits)], as: UTF8.self)
            return exactValue(second: whole - referenceOffset, digits: digits).map(Date.init(timeIntervalSinceReferenceDate:))
        }
        // Round to the microsecond so that a written date reads back as the same Double: the
        // arithmetic every file so far was read with.
        let micros = (fraction * 1_000_000).rounded()
        return Date(timeIntervalSince1970: (Double(whole) * 1_000_000 + micros) / 1_000_000)
    }

    private static func pad<Number: BinaryInteger>(_ value: Number, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
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

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    /// Package-visible for the importer's XML property-list dates (RizqImport).
    package static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
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
