import Foundation
import Logging
import Synchronization

/// Foundation's domains: a suite's stored contents as a whole (its persistent domain), and
/// volatile domains — named dictionaries kept in memory for the life of the process.
extension SuiteStore {
    /// Foundation's name of the global domain. Suites have no global domain; the name is here so
    /// that code naming it compiles.
    public static let globalDomain = "NSGlobalDomain"
    /// Foundation's name of the volatile domain of command-line arguments. It is always empty
    /// here: a suite never reads settings from the process's arguments.
    public static let argumentDomain = "NSArgumentDomain"
    /// The volatile domain of the registered defaults (``register(defaults:)``).
    public static let registrationDomain = "NSRegistrationDomain"

    // MARK: Persistent domains

    /// Makes the suite named `domainName` (this suite, or another suite of the same app) hold
    /// exactly `domain`: keys not in it are removed. Other processes see the old contents or the
    /// new ones, never a mix. Takes what ``set(_:forKey:)-(Any?,_)`` takes; when a value cannot be
    /// stored, nothing changes and an error naming its type is logged.
    public func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
        do {
            try putPersistentDomain(domain, forName: domainName)
        } catch {
            Logger.rizqPrefs.error("cannot set persistent domain '\(domainName)': \(error)", metadata: ["suite": "\(suiteName)"])
        }
    }

    /// ``setPersistentDomain(_:forName:)``, throwing instead of logging.
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)`` for a value that cannot be stored,
    ///   or an error opening the suite; nothing is changed.
    public func putPersistentDomain(_ domain: [String: Any], forName domainName: String) throws(SuiteStoreError) {
        var changes: [(key: String, value: PrefValue?)] = []
        changes.reserveCapacity(domain.count)
        for (key, value) in domain {
            changes.append((key, try Self.storable(value, forKey: key)))
        }
        let target = domainName == suiteName ? self : try sibling(named: domainName)
        target.openSuite.apply(changes, replacingAll: true)
        postDidChange()
    }

    // MARK: Volatile domains

    /// The names of the volatile domains: ``argumentDomain``, ``registrationDomain``, and those
    /// set with ``setVolatileDomain(_:forName:)``.
    public var volatileDomainNames: [String] {
        let named = VolatileDomains.names(of: openSuite)
        return [Self.argumentDomain, Self.registrationDomain] + named.filter { $0 != Self.argumentDomain && $0 != Self.registrationDomain }
    }

    /// The volatile domain named `domainName`, or an empty dictionary. ``registrationDomain`` is
    /// the registered defaults.
    public func volatileDomain(forName domainName: String) -> [String: Any] {
        if domainName == Self.registrationDomain {
            return openSuite.memory.valuesAndDefaults.defaults.mapValues(\.anyValue)
        }
        return VolatileDomains.domain(domainName, of: openSuite).mapValues(\.anyValue)
    }

    /// Sets the volatile domain named `domainName`, replacing what it held: kept in memory for
    /// this suite, in this process, and never written. Volatile domains other than
    /// ``registrationDomain`` (which replaces the registered defaults) are not searched by
    /// `object(forKey:)` and the other getters, as in Foundation. Takes what
    /// ``set(_:forKey:)-(Any?,_)`` takes; when a value cannot be stored, nothing changes and an
    /// error naming its type is logged.
    public func setVolatileDomain(_ domain: [String: Any], forName domainName: String) {
        var converted: [String: PrefValue] = [:]
        converted.reserveCapacity(domain.count)
        for (key, value) in domain {
            do {
                converted[key] = try Self.storable(value, forKey: key)
            } catch {
                Logger.rizqPrefs.error("cannot set volatile domain '\(domainName)': \(error)", metadata: ["suite": "\(suiteName)"])
                return
            }
        }
        if domainName == Self.registrationDomain {
            openSuite.memory.replaceDefaults(with: converted)
        } else {
            VolatileDomains.set(converted, named: domainName, of: openSuite)
        }
    }

    /// Removes the volatile domain named `domainName` (for ``registrationDomain``: every
    /// registered default).
    public func removeVolatileDomain(forName domainName: String) {
        if domainName == Self.registrationDomain {
            openSuite.memory.replaceDefaults(with: [:])
        } else {
            VolatileDomains.set(nil, named: domainName, of: openSuite)
        }
    }
}

/// The volatile domains of every suite open in this process, by suite: shared, like the rest of
/// a suite's state, by every ``SuiteStore`` that names it.
enum VolatileDomains {
    private static let domains = Mutex<[ObjectIdentifier: [String: [String: PrefValue]]]>([:])

    static func names(of openSuite: OpenSuite) -> [String] {
        domains.withLock { $0[ObjectIdentifier(openSuite)].map { Array($0.keys) } ?? [] }.sorted()
    }

    static func domain(_ name: String, of openSuite: OpenSuite) -> [String: PrefValue] {
        domains.withLock { $0[ObjectIdentifier(openSuite)]?[name] } ?? [:]
    }

    static func set(_ domain: [String: PrefValue]?, named name: String, of openSuite: OpenSuite) {
        domains.withLock { $0[ObjectIdentifier(openSuite), default: [:]][name] = domain }
    }
}
