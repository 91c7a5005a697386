import Foundation
import XCTest
@testable import RizqPrefs

/// What swift-corelibs-foundation's own `TestUserDefaults` checks — registered defaults of each
/// type, each lenient conversion, volatile and persistent domains, the change notification —
/// asked of `SuiteStore` and of Foundation's `UserDefaults` in the same test, so that any
/// difference fails a comparison. The one difference kept on purpose is asserted as such: a
/// `Float` is stored as its shortest decimal (README, "Porting from iOS").
final class FoundationConformanceTests: XCTestCase {
    private var root: TemporaryRoot!
    private var suiteName = ""
    private var ours: SuiteStore!
    private var theirs: UserDefaults!

    override func setUpWithError() throws {
        root = TemporaryRoot()
        // Foundation writes its plists under $XDG_CONFIG_HOME (scripts/test points HOME at a
        // temporary folder); a unique name keeps this test's domain its own.
        suiteName = "org.rizq.conformance.\(UUID().uuidString.prefix(8))"
        ours = try root.store(suiteName)
        theirs = try XCTUnwrap(UserDefaults(suiteName: suiteName))
    }

    override func tearDown() {
        theirs?.removePersistentDomain(forName: suiteName)
        theirs = nil
        ours = nil
        root = nil
    }

    /// Both stores, each through the same code.
    private var both: [(name: String, defaults: any DefaultsLike)] {
        [("SuiteStore", ours), ("UserDefaults", theirs)]
    }

    /// Runs `prepare` on each store, then checks that `read` gives `expected` from both.
    private func expectSame<Value: Equatable>(
        _ expected: Value, _ what: String,
        prepare: (any DefaultsLike) -> Void, read: (any DefaultsLike) -> Value,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for (name, defaults) in both {
            defaults.removeObject(forKey: "key1")
            prepare(defaults)
            XCTAssertEqual(read(defaults), expected, "\(name): \(what)", file: file, line: line)
        }
    }

    // MARK: Registered defaults of each type (test_getRegisteredDefaultItem*)

    func testRegisteredDefaultsOfEachType() {
        let bytes: [UInt8] = [0, 1, 2, 3, 4]
        let path = "/hello/world"
        expectSame(5, "NSNumber", prepare: { $0.register(defaults: ["key1": NSNumber(value: 5)]) }, read: { $0.integer(forKey: "key1") })
        expectSame("hello", "NSString", prepare: { $0.register(defaults: ["key1": "hello" as NSString]) }, read: { $0.string(forKey: "key1") })
        expectSame("hello", "String", prepare: { $0.register(defaults: ["key1": "hello"]) }, read: { $0.string(forKey: "key1") })
        expectSame(URL(fileURLWithPath: path), "NSURL", prepare: { $0.register(defaults: ["key1": NSURL(fileURLWithPath: path)]) }, read: { $0.url(forKey: "key1") })
        expectSame(URL(fileURLWithPath: path), "URL", prepare: { $0.register(defaults: ["key1": URL(fileURLWithPath: path)]) }, read: { $0.url(forKey: "key1") })
        expectSame(Data(bytes), "NSData", prepare: { $0.register(defaults: ["key1": NSData(bytes: bytes, length: bytes.count)]) }, read: { $0.data(forKey: "key1") })
        expectSame(Data(bytes), "Data", prepare: { $0.register(defaults: ["key1": Data(bytes)]) }, read: { $0.data(forKey: "key1") })
        expectSame(true, "a bool from \"YES\"", prepare: { $0.register(defaults: ["key1": "YES"]) }, read: { $0.bool(forKey: "key1") })
        expectSame(1234, "an integer from \"1234\"", prepare: { $0.register(defaults: ["key1": "1234"]) }, read: { $0.integer(forKey: "key1") })
        expectSame(12.34, "a double from \"12.34\"", prepare: { $0.register(defaults: ["key1": "12.34"]) }, read: { $0.double(forKey: "key1") })
        let date = Date(timeIntervalSince1970: 1_763_819_220.25)
        expectSame(date, "NSDate", prepare: { $0.register(defaults: ["key1": NSDate(timeIntervalSince1970: 1_763_819_220.25)]) }, read: { $0.object(forKey: "key1") as? Date })
        expectSame(["a", "b"], "NSArray of NSString", prepare: { $0.register(defaults: ["key1": NSArray(array: ["a" as NSString, "b" as NSString])]) },
                   read: { $0.array(forKey: "key1") as? [String] })
        expectSame(["n": 1], "NSDictionary", prepare: { $0.register(defaults: ["key1": NSDictionary(dictionary: ["n": NSNumber(value: 1)])]) },
                   read: { $0.dictionary(forKey: "key1") as? [String: Int] })
    }

    // MARK: Values set, and each lenient conversion (test_setValue_*)

    func testFoundationObjectsAreStored() {
        let bytes: [UInt8] = [0, 1, 2, 3, 4]
        expectSame("hello", "NSString", prepare: { $0.set("hello" as NSString, forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame(URL(fileURLWithPath: "/hello/world"), "NSURL", prepare: { $0.set(NSURL(fileURLWithPath: "/hello/world"), forKey: "key1") }, read: { $0.url(forKey: "key1") })
        expectSame(Data(bytes), "NSData", prepare: { $0.set(NSData(bytes: bytes, length: bytes.count), forKey: "key1") }, read: { $0.data(forKey: "key1") })
        expectSame(Data(bytes), "NSMutableData", prepare: { $0.set(NSMutableData(bytes: bytes, length: bytes.count), forKey: "key1") }, read: { $0.data(forKey: "key1") })
        expectSame("mutable", "NSMutableString", prepare: { $0.set(NSMutableString(string: "mutable"), forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame(Date(timeIntervalSince1970: 86_400), "NSDate", prepare: { $0.set(NSDate(timeIntervalSince1970: 86_400), forKey: "key1") }, read: { $0.object(forKey: "key1") as? Date })
        expectSame(42, "NSNumber", prepare: { $0.set(NSNumber(value: 42), forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(true, "NSNumber of a bool", prepare: { $0.set(NSNumber(value: true), forKey: "key1") }, read: { $0.object(forKey: "key1") as? Bool })
        expectSame(["x", "y"], "NSArray", prepare: { $0.set(NSArray(array: ["x" as NSString, "y"]), forKey: "key1") }, read: { $0.stringArray(forKey: "key1") })
        expectSame(["when": Date(timeIntervalSince1970: 3), "bytes": Data([1])] as [String: AnyHashable], "NSDictionary of NSDate and NSData",
                   prepare: { $0.set(NSDictionary(dictionary: ["when": NSDate(timeIntervalSince1970: 3), "bytes": NSData(bytes: [1] as [UInt8], length: 1)]), forKey: "key1") },
                   read: { $0.dictionary(forKey: "key1") as? [String: AnyHashable] })
        expectSame([["deep": "yes"]], "a Swift array holding an NSDictionary holding an NSString",
                   prepare: { $0.set([NSDictionary(dictionary: ["deep": "yes" as NSString])], forKey: "key1") },
                   read: { $0.array(forKey: "key1") as? [[String: String]] })
    }

    func testLenientConversions() {
        // test_setValue_*: each getter of each stored type.
        expectSame(true, "bool from \"YES\"", prepare: { $0.set("YES", forKey: "key1") }, read: { $0.bool(forKey: "key1") })
        expectSame(1, "integer from true", prepare: { $0.set(true, forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(12, "integer from a Float", prepare: { $0.set(Float(12.34), forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(12, "integer from a Double", prepare: { $0.set(12.34, forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(1234, "integer from \"1234\"", prepare: { $0.set("1234", forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(Float(1), "float from true", prepare: { $0.set(true, forKey: "key1") }, read: { $0.float(forKey: "key1") })
        expectSame(Float(42), "float from 42", prepare: { $0.set(42, forKey: "key1") }, read: { $0.float(forKey: "key1") })
        expectSame(Float(12.34), "float from a Double", prepare: { $0.set(12.34, forKey: "key1") }, read: { $0.float(forKey: "key1") })
        expectSame(Float(1234), "float from \"1234\"", prepare: { $0.set("1234", forKey: "key1") }, read: { $0.float(forKey: "key1") })
        expectSame(Float(12.34), "float from a Float", prepare: { $0.set(Float(12.34), forKey: "key1") }, read: { $0.float(forKey: "key1") })
        expectSame(1.0, "double from true", prepare: { $0.set(true, forKey: "key1") }, read: { $0.double(forKey: "key1") })
        expectSame(42.0, "double from 42", prepare: { $0.set(42, forKey: "key1") }, read: { $0.double(forKey: "key1") })
        expectSame(12.34, "double from \"12.34\"", prepare: { $0.set("12.34", forKey: "key1") }, read: { $0.double(forKey: "key1") })
        expectSame("1", "string from true", prepare: { $0.set(true, forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame("0", "string from false", prepare: { $0.set(false, forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame("42", "string from 42", prepare: { $0.set(42, forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame("12.34", "string from a Float", prepare: { $0.set(Float(12.34), forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame("12.34", "string from a Double", prepare: { $0.set(12.34, forKey: "key1") }, read: { $0.string(forKey: "key1") })
        expectSame(nil, "string from data", prepare: { $0.set(Data([1]), forKey: "key1") }, read: { $0.string(forKey: "key1") })

        // Text, read as NSString reads it.
        for text in ["42", " 42", "  +7", "-3", "12abc", "12.9", "1e3", "abc", "", "0x10", "9999999999999999999999"] {
            expectSame(NSString(string: text).integerValue, "integer from \(text.debugDescription)", prepare: { $0.set(text, forKey: "key1") }, read: { $0.integer(forKey: "key1") })
            expectSame(NSString(string: text).doubleValue, "double from \(text.debugDescription)", prepare: { $0.set(text, forKey: "key1") }, read: { $0.double(forKey: "key1") })
        }
        // Foundation's own readers trap on these (a number that would start outside the BMP;
        // UserDefaults too): the suite reads them as text that holds no number.
        for text in ["😀", " 😀x", "\t𝟘1", "-😀"] {
            ours.set(text, forKey: "key1")
            XCTAssertEqual(ours.integer(forKey: "key1"), 0, text)
            XCTAssertEqual(ours.double(forKey: "key1"), 0, text)
            XCTAssertEqual(ours.float(forKey: "key1"), 0, text)
        }
        for text in ["YES", "yes", "Yes", "true", "t", "T", "Y", "1", "2", " 7", "0", "no", "false", "NO", "abc", ""] {
            expectSame(NSString(string: text).boolValue, "bool from \(text.debugDescription)", prepare: { $0.set(text, forKey: "key1") }, read: { $0.bool(forKey: "key1") })
        }
        // Numbers as bools, and what is not a number.
        for (value, expected) in [(0, false), (1, true), (2, true), (-1, true)] {
            expectSame(expected, "bool from \(value)", prepare: { $0.set(value, forKey: "key1") }, read: { $0.bool(forKey: "key1") })
        }
        expectSame(true, "bool from 0.5", prepare: { $0.set(0.5, forKey: "key1") }, read: { $0.bool(forKey: "key1") })
        expectSame(false, "bool from data", prepare: { $0.set(Data([1]), forKey: "key1") }, read: { $0.bool(forKey: "key1") })
        expectSame(0, "integer from a date", prepare: { $0.set(Date(), forKey: "key1") }, read: { $0.integer(forKey: "key1") })
        expectSame(nil, "array from a string", prepare: { $0.set("x", forKey: "key1") }, read: { $0.array(forKey: "key1")?.count })
        expectSame(nil, "stringArray of mixed elements", prepare: { $0.set([1, "x"] as [Any], forKey: "key1") }, read: { $0.stringArray(forKey: "key1") })
        expectSame(nil, "data from a string", prepare: { $0.set("x", forKey: "key1") }, read: { $0.data(forKey: "key1") })
    }

    func testMissingKeys() {
        expectSame(nil, "object", prepare: { _ in }, read: { $0.object(forKey: "key1").map { "\($0)" } })
        expectSame(nil, "string", prepare: { _ in }, read: { $0.string(forKey: "key1") })
        expectSame(false, "bool", prepare: { _ in }, read: { $0.bool(forKey: "key1") })
        expectSame(0, "integer", prepare: { _ in }, read: { $0.integer(forKey: "key1") })
        expectSame(0, "double", prepare: { _ in }, read: { $0.double(forKey: "key1") })
        expectSame(0, "float", prepare: { _ in }, read: { $0.float(forKey: "key1") })
        expectSame(nil, "data", prepare: { _ in }, read: { $0.data(forKey: "key1") })
        expectSame(nil, "url", prepare: { _ in }, read: { $0.url(forKey: "key1") })
        expectSame(nil, "dictionary", prepare: { _ in }, read: { $0.dictionary(forKey: "key1")?.count })
        expectSame(nil, "setting nil removes", prepare: { $0.set(7, forKey: "key1"); $0.set(nil, forKey: "key1") }, read: { $0.object(forKey: "key1").map { "\($0)" } })
    }

    /// The difference kept on purpose: a Float is stored as its shortest decimal, so that the
    /// file says 12.34 and a Double reader gets 12.34, where Foundation gives the Float's binary
    /// value widened, 12.340000152587890625.
    func testAFloatIsStoredAsItsShortestDecimal() {
        ours.set(Float(12.34), forKey: "key1")
        theirs.set(Float(12.34), forKey: "key1")
        XCTAssertEqual(ours.double(forKey: "key1"), 12.34)
        XCTAssertEqual(theirs.double(forKey: "key1"), Double(Float(12.34)))
        XCTAssertEqual(ours.float(forKey: "key1"), theirs.float(forKey: "key1"), "as a Float, both read back the Float stored")
    }

    // MARK: Volatile domains (test_volatileDomains)

    func testVolatileDomains() throws {
        let date = Date()
        let domain: [String: Any] = [
            "A Date": date, "A String": "The String", "An Array": [1, 2, 3],
            "A Dictionary": ["Swift": "Imperative", "LISP": "LISP", "Today": date],
            "Some Data": Data("The Data".utf8), "A Bool": true, "An NSString": "ns" as NSString,
        ]
        for (name, defaults) in both {
            XCTAssertFalse(defaults.volatileDomainNames.contains("TestDomain"), name)
            XCTAssertEqual(defaults.volatileDomain(forName: "TestDomain").count, 0, name)
            defaults.setVolatileDomain(domain, forName: "TestDomain")
            XCTAssertTrue(defaults.volatileDomainNames.contains("TestDomain"), name)
            let read = defaults.volatileDomain(forName: "TestDomain")
            XCTAssertEqual(read.count, domain.count, name)
            XCTAssertEqual(read["A Date"] as? Date, date, name)
            XCTAssertEqual(read["A String"] as? String, "The String", name)
            XCTAssertEqual(read["An Array"] as? [Int], [1, 2, 3], name)
            XCTAssertEqual(read["A Dictionary"] as? [String: AnyHashable], ["Swift": "Imperative", "LISP": "LISP", "Today": date], name)
            XCTAssertEqual(read["Some Data"] as? Data, Data("The Data".utf8), name)
            XCTAssertEqual(read["A Bool"] as? Bool, true, name)
            XCTAssertEqual(read["An NSString"] as? String, "ns", name)
            // A volatile domain is not searched by the getters, and never written.
            XCTAssertNil(defaults.object(forKey: "A String"), name)
            defaults.removeVolatileDomain(forName: "TestDomain")
            XCTAssertFalse(defaults.volatileDomainNames.contains("TestDomain"), name)
            XCTAssertEqual(defaults.volatileDomain(forName: "TestDomain").count, 0, name)
        }
        XCTAssertNil(root.fileBytes(suiteName), "nothing was written")
    }

    func testVolatileDomainsAreSharedByTheSuitesStoresAndTheRegistrationDomainIsTheRegisteredDefaults() throws {
        ours.setVolatileDomain(["k": 1], forName: "Shared")
        let second = try root.store(suiteName)
        XCTAssertEqual(second.volatileDomain(forName: "Shared")["k"] as? Int, 1, "all stores of a suite share its state")
        XCTAssertEqual(try root.store("other").volatileDomain(forName: "Shared").count, 0, "other suites do not")
        // Set again: replaced, not merged (as on Apple platforms).
        ours.setVolatileDomain(["j": 2], forName: "Shared")
        XCTAssertEqual(ours.volatileDomain(forName: "Shared").keys.sorted(), ["j"])

        ours.register(defaults: ["theme_mode": "system"])
        XCTAssertEqual(ours.volatileDomain(forName: SuiteStore.registrationDomain)["theme_mode"] as? String, "system")
        XCTAssertTrue(ours.volatileDomainNames.contains(SuiteStore.registrationDomain))
        ours.setVolatileDomain(["daily_goal": 3], forName: SuiteStore.registrationDomain)
        XCTAssertNil(ours.string(forKey: "theme_mode"), "the registration domain was replaced")
        XCTAssertEqual(ours.integer(forKey: "daily_goal"), 3)
        ours.removeVolatileDomain(forName: SuiteStore.registrationDomain)
        XCTAssertEqual(ours.integer(forKey: "daily_goal"), 0)
    }

    // MARK: Persistent domains and the notification (test_persistentDomain)

    func testPersistentDomainsAndOneNotificationForEachChange() throws {
        let today = Date()
        let domainIn: [String: Any] = [
            "An Integer": 1234, "A Double": 5678.1234, "A String": "Some string",
            "An Array": [1, 2, 3, 4, "Surprise"] as [AnyHashable],
            "A Dictionary": ["Swift": "Imperative", "Haskell": "Functional", "Today": today] as [String: AnyHashable],
            "An NSString": "ns" as NSString,
        ]
        for (name, defaults) in both {
            let domainName = "org.rizq.conformance.persistent\(UUID().uuidString.prefix(8))"
            let counter = NotificationCounter(object: defaults as AnyObject)
            defaults.removePersistentDomain(forName: domainName)
            XCTAssertEqual(defaults.persistentDomain(forName: domainName)?.count ?? 0, 0, name)
            defaults.setPersistentDomain(domainIn, forName: domainName)
            let returned = try XCTUnwrap(defaults.persistentDomain(forName: domainName), name)
            XCTAssertEqual(returned.count, domainIn.count, name)
            XCTAssertEqual(returned["An Integer"] as? Int, 1234, name)
            XCTAssertEqual(returned["A Double"] as? Double, 5678.1234, name)
            XCTAssertEqual(returned["A String"] as? String, "Some string", name)
            XCTAssertEqual(returned["An Array"] as? [AnyHashable], [1, 2, 3, 4, "Surprise"], name)
            XCTAssertEqual(returned["A Dictionary"] as? [String: AnyHashable], ["Swift": "Imperative", "Haskell": "Functional", "Today": today], name)
            XCTAssertEqual(returned["An NSString"] as? String, "ns", name)
            // Setting again replaces: keys not in the new domain go.
            defaults.setPersistentDomain(["Only": "this"], forName: domainName)
            XCTAssertEqual(defaults.persistentDomain(forName: domainName)?.keys.sorted(), ["Only"], name)
            defaults.removePersistentDomain(forName: domainName)
            XCTAssertEqual(defaults.persistentDomain(forName: domainName)?.count ?? 0, 0, name)
            XCTAssertEqual(counter.count, 4, "\(name): one notification for each remove and set, posted at once on this thread")
        }
    }

    func testSetPersistentDomainOfTheStoresOwnSuiteIsWrittenAtOnce() throws {
        ours.set("old", forKey: "gone")
        ours.setPersistentDomain(["kept": 1, "url": NSURL(string: "https://rizq.app/x") as Any], forName: suiteName)
        try ours.flush()
        let file = try root.fileObject(suiteName)
        XCTAssertEqual(file.keys.sorted(), ["kept", "url"])
        XCTAssertEqual(file["url"] as? String, "https://rizq.app/x", "an https URL stays https")
    }

    func testLocalChangesPostTheNotificationWithTheStoreAsObject() throws {
        let counter = NotificationCounter(object: ours)
        let all = NotificationCounter(object: nil)
        // Calls that change several keys are posted at once, on this thread, once per call.
        ours.batch { batch in
            try? batch.set(2, forKey: "c")
            try? batch.set(3, forKey: "d")
        }
        _ = try ours.commit { batch in try batch.set(4, forKey: "e") }
        XCTAssertEqual(counter.count, 2, "one for the batch and one for the commit, posted before they return")
        XCTAssertEqual(all.count, 2)
        // One-key writes are posted just after, from the post queue: at least one post, none
        // more than one per write, and the last one after the last write.
        ours.set(1, forKey: "a")
        ours.set("x" as NSString, forKey: "b")
        ours.removeObject(forKey: "a")
        Self.waitForPosts()
        XCTAssertTrue((3...5).contains(counter.count), "\(counter.count - 2) posts for 3 one-key writes")
        XCTAssertEqual(all.count, counter.count)
        XCTAssertEqual(counter.lastSeen?["b"] as? String, "x", "the observer reads the store after the writes")
        XCTAssertTrue(counter.lastSeen?.keys.contains("a") == false, "…after the removal too")
        // A refused value changes nothing and posts nothing.
        let before = counter.count
        ours.set(Date(timeIntervalSince1970: 1e15), forKey: "far")
        ours.set(NotStorable(), forKey: "struct")
        Self.waitForPosts()
        XCTAssertEqual(counter.count, before)
        // Another store of the same suite posts with itself as the object.
        let second = try root.store(suiteName)
        second.set(5, forKey: "f")
        Self.waitForPosts()
        XCTAssertEqual(counter.count, before)
        XCTAssertEqual(all.count, before + 1)
    }

    func testABurstOfOneKeyWritesIsPostedAfterItsLastWrite() throws {
        let counter = NotificationCounter(object: ours)
        let writes = 10_000
        for value in 1...writes { ours.set(value, forKey: "burst") }
        Self.waitForPosts()
        XCTAssertGreaterThanOrEqual(counter.count, 1)
        XCTAssertLessThanOrEqual(counter.count, writes, "never more than one post per write")
        XCTAssertEqual(counter.lastSeen?["burst"] as? Int, writes, "the last post comes after the last write")
        XCTAssertFalse(counter.postedOnWritingThread, "one-key writes are posted from the post queue")
    }

    /// Returns once every post scheduled so far has been made: the posts of one-key writes run
    /// in order on one serial queue.
    private static func waitForPosts() {
        DidChangeRelay.postQueue.sync {}
    }

    func testAnotherProcesssWriteIsPosted() throws {
        let store: SuiteStore = ours
        let arrived = expectation(forNotification: SuiteStore.didChangeNotification, object: store) { _ in
            store.integer(forKey: "streak") == 42
        }
        let output = try Child.run(root, suiteName, ["set-json", "streak", "42"])
        XCTAssertEqual(output.status, 0, output.stderr)
        wait(for: [arrived], timeout: 10)
        XCTAssertEqual(ours.integer(forKey: "streak"), 42, "observers read the new value")
    }

    // MARK: What cannot be stored is refused loudly

    func testWhatCannotBeStoredIsRefusedLoudlyAndChangesNothing() throws {
        let cases: [(value: Any, named: String)] = [
            (NotStorable(), "NotStorable"),
            (["fine", NotStorable()] as [Any], "NotStorable at [1]"),
            (["outer": ["inner": NotStorable()]] as [String: Any], "NotStorable at [\"outer\"][\"inner\"]"),
            (Set(["a"]), "Set<String>"),
            ([1: "one"] as [Int: String], "Dictionary<Int, String> (a dictionary whose keys are not all strings)"),
        ]
        ours.set("before", forKey: "key1")
        for (value, named) in cases {
            ours.set(value, forKey: "key1")
            XCTAssertEqual(ours.string(forKey: "key1"), "before", "the stored value stays: \(named)")
            XCTAssertThrowsError(try ours.put(any: value, forKey: "key1")) { error in
                XCTAssertTrue("\(error)".contains("cannot hold a value of type \(named)"), "\(error)")
            }
            ours.register(defaults: ["registered": value])
            XCTAssertNil(ours.object(forKey: "registered"), named)
        }
        ours.setPersistentDomain(["ok": 1, "bad": NotStorable()], forName: suiteName)
        XCTAssertEqual(ours.string(forKey: "key1"), "before", "a refused domain changes nothing")
        XCTAssertNil(ours.object(forKey: "ok"))
        XCTAssertThrowsError(try ours.putPersistentDomain(["ok": 1, "bad": NotStorable()], forName: suiteName))

        // Loudly: each refusal is an error in the log that names the type (a real process, so
        // that its log goes to stderr through swift-log's default handler).
        ours.set("before", forKey: "key1")
        try ours.flush()
        let child = try Child.run(root, suiteName, ["set-unstorable", "key1"])
        XCTAssertEqual(child.status, 0, child.stderr)
        let errors = child.stderr.split(separator: "\n").filter { $0.contains("error") }
        for (_, named) in cases {
            XCTAssertTrue(errors.contains { $0.contains("cannot store key 'key1'") && $0.contains("value of type \(named)") }, "set of \(named): \(child.stderr)")
            XCTAssertTrue(errors.contains { $0.contains("cannot register a default for key 'key1-registered'") && $0.contains("value of type \(named)") }, "register of \(named)")
        }
        XCTAssertTrue(errors.contains { $0.contains("cannot set persistent domain") && $0.contains("NotStorable") }, child.stderr)
        XCTAssertEqual(try root.fileObject(suiteName) as NSDictionary, ["key1": "before"], "the child changed nothing")
    }

    func testFoundationObjectsReadBackTheSameAfterAFreshOpen() throws {
        ours.set("text" as NSString, forKey: "string")
        ours.set(NSData(bytes: [9, 8] as [UInt8], length: 2), forKey: "data")
        ours.set(NSURL(string: "https://rizq.app/a?b=c") as Any, forKey: "url")
        ours.set(NSNumber(value: UInt64.max), forKey: "large")
        ours.set(NSNumber(value: 0.5), forKey: "half")
        try ours.flush()
        let output = try Child.run(root, suiteName, ["read", "string:string", "data:data", "url:url", "large:uint64", "half:double"])
        XCTAssertEqual(output.lines, [Data("text".utf8).base64EncodedString(), Data([9, 8]).base64EncodedString(), "https://rizq.app/a?b=c", "\(UInt64.max)", "\((0.5).bitPattern)"])
    }
}

private struct NotStorable {}

/// Counts the suite notifications posted for `object` (`nil`: for any object) while it lives,
/// and keeps what the posting store held when the last one arrived.
final class NotificationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = 0
    private var lastContents: [String: Any]?
    private var onWritingThread = false
    private var token: NSObjectProtocol?
    private let writingThread = Thread.current

    init(object: AnyObject?) {
        token = NotificationCenter.default.addObserver(forName: SuiteStore.didChangeNotification, object: object, queue: nil) { [weak self] notification in
            guard let self else { return }
            let contents = (notification.object as? SuiteStore)?.dictionaryRepresentation()
            let here = Thread.current == self.writingThread
            self.lock.lock()
            self.seen += 1
            self.lastContents = contents
            self.onWritingThread = self.onWritingThread || here
            self.lock.unlock()
        }
    }

    /// What the posting store held when the last notification arrived (a ``SuiteStore`` only).
    var lastSeen: [String: Any]? {
        lock.lock()
        defer { lock.unlock() }
        return lastContents
    }

    /// Whether some notification ran on the thread that made this counter.
    var postedOnWritingThread: Bool {
        lock.lock()
        defer { lock.unlock() }
        return onWritingThread
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}

/// What Foundation's `UserDefaults` and `SuiteStore` share, so that one check runs on both.
protocol DefaultsLike: AnyObject {
    func set(_ value: Any?, forKey key: String)
    func removeObject(forKey key: String)
    func register(defaults: [String: Any])
    func object(forKey key: String) -> Any?
    func string(forKey key: String) -> String?
    func bool(forKey key: String) -> Bool
    func integer(forKey key: String) -> Int
    func double(forKey key: String) -> Double
    func float(forKey key: String) -> Float
    func data(forKey key: String) -> Data?
    func url(forKey key: String) -> URL?
    func array(forKey key: String) -> [Any]?
    func dictionary(forKey key: String) -> [String: Any]?
    func stringArray(forKey key: String) -> [String]?
    var volatileDomainNames: [String] { get }
    func volatileDomain(forName domainName: String) -> [String: Any]
    func setVolatileDomain(_ domain: [String: Any], forName domainName: String)
    func removeVolatileDomain(forName domainName: String)
    func persistentDomain(forName domainName: String) -> [String: Any]?
    func setPersistentDomain(_ domain: [String: Any], forName domainName: String)
    func removePersistentDomain(forName domainName: String)
}

extension UserDefaults: DefaultsLike {}
extension SuiteStore: DefaultsLike {}
