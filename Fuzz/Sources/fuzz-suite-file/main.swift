// The suite-file reader: a suite whose file holds the input is opened, every key read, one set,
// and the suite flushed. A file that does not parse must be moved aside byte for byte and the
// suite start empty; one that parses must be written back so that it reads back the same.
import Foundation
import FuzzSupport
import RizqPrefs

let scratch = Scratch()

/// The store waits 100 ms before it moves a damaged file aside (in case a writer that does not
/// replace files atomically is half-way through): with that pause, most inputs here being
/// damaged files, this target ran 8 inputs a second. The fuzzer replaces usleep for this process
/// only; what is fuzzed is what happens after the pause.
@_cdecl("usleep")
func usleepSkipped(_ microseconds: UInt32) -> Int32 { 0 }

runFuzzer { input in
    defer { scratch.clean() }
    let bytes = Data(input)
    let suite = scratch.nextSuite()
    scratch.write(bytes, as: suite)
    let store = scratch.open(suite)
    if let moved = store.damagedFileMovedAside {
        require(contents(ofFile: moved.path) == bytes, "the damaged file was not moved aside byte for byte")
        require(store.keys.isEmpty, "a damaged file left keys behind")
    }
    for key in store.keys {
        let value = store.prefValue(forKey: key)
        require(value != nil, "key \(key) listed but not readable")
        _ = store.string(forKey: key)
        _ = store.integer(forKey: key)
        _ = store.double(forKey: key)
        _ = store.bool(forKey: key)
        _ = store.value(forKey: key, as: Date.self)
        _ = store.value(forKey: key, as: Data.self)
        _ = store.url(forKey: key)
        _ = store.array(forKey: key)
        _ = store.dictionary(forKey: key)
    }
    let before = store.entries
    store.set(bytes.count, forKey: "fuzz.written")
    do {
        try store.flush()
    } catch {
        require(false, "flush failed: \(error)")
    }
    var expected = before
    expected["fuzz.written"] = .int(bytes.count)
    let fresh = scratch.reopenCopy(of: suite)
    require(fresh.damagedFileMovedAside == nil, "the file written is damaged")
    require(identical(.dictionary(fresh.entries), .dictionary(expected)), "what was read did not read back the same after a write")
}
