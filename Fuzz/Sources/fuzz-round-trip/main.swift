// The round-trip property: whatever a suite accepts, it writes and a fresh open of the file
// reads back as the very same value (doubles and dates bit for bit, NaN as NaN, dates across
// the whole range of Date, nesting up to the reader's limit); whatever it refuses, it refuses
// at `set`, saying why, and isRepresentableInJSON agrees — so an acknowledged `set` never
// makes the suite unreadable (the fresh open finds every accepted key, nothing moved aside).
import Foundation
import FuzzSupport
import RizqPrefs

let scratch = Scratch()

runFuzzer { input in
    defer { scratch.clean() }
    var reader = FuzzedValue(input)
    let suite = scratch.nextSuite()
    let store = scratch.open(suite)
    var accepted: [String: PrefValue] = [:]
    var index = 0
    while !reader.isAtEnd, index < 16 {
        let key = index.isMultiple(of: 3) ? reader.string() : "k\(index)"
        let value = reader.value()
        index += 1
        do {
            try store.put(value, forKey: key)
            require(value.isRepresentableInJSON, "a value was stored that isRepresentableInJSON calls unrepresentable")
            accepted[key] = value
        } catch {
            require(!value.isRepresentableInJSON, "a representable value was refused: \(error)")
            require("\(error)".contains("nothing was written"), "a refusal that does not say so: \(error)")
        }
    }
    do {
        try store.flush()
    } catch {
        require(false, "flush failed: \(error)")
    }
    let fresh = scratch.reopenCopy(of: suite)
    require(fresh.damagedFileMovedAside == nil, "an accepted value made the file unreadable: \(String(describing: fresh.damagedFileMovedAside))")
    for (key, value) in accepted {
        require(identical(store.prefValue(forKey: key), value), "memory does not hold what was set for \(key)")
        require(identical(fresh.prefValue(forKey: key), value), "\(key) read back as \(String(describing: fresh.prefValue(forKey: key))), not \(value)")
    }
    require(Set(fresh.keys) == Set(accepted.keys), "the keys read back differ")
}
