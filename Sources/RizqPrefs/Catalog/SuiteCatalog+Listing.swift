#if canImport(Glibc)
import Glibc
#endif

extension SuiteCatalog {
    /// The name of the file where `rizq-prefs import-app` records the imports it ran
    /// (`<root>/apps/<app id>/rizq-imports.json`, a file in the suite format): not a suite, so
    /// neither listed among the suites nor opened by the command line as one.
    package static let importRecordName = "rizq-imports"

    /// The record's name before imports had their own word (`rizq-migrations.json`): read, so
    /// that imports recorded there still count as done, and never written.
    package static let earlierImportRecordName = "rizq-migrations"

    /// Whether `name` (an app's suite name) is an import record, the current or the earlier one.
    package static func isImportRecord(_ name: String) -> Bool {
        name == importRecordName || name == earlierImportRecordName
    }

    /// A folder that could not be listed, and why.
    package struct UnreadableFolder: Sendable, Equatable {
        /// The folder.
        package var path: String
        /// The system's words (`Permission denied`).
        package var reason: String
    }

    /// What the folders under the root hold, as far as they can be read: one folder that cannot
    /// be listed is named in ``unreadable`` and the others are listed all the same.
    package struct Listing: Sendable {
        /// Every suite file: app-group suites first, then each app's, sorted by name.
        package var suites: [Entry] = []
        /// The import records (``importRecordName``, ``earlierImportRecordName``) of the apps that have one.
        package var importRecords: [Entry] = []
        /// The folders that hold suite files and exist: `groups`, then each app's, sorted.
        package var folders: [String] = []
        /// Entries of `apps` that are not folders (where an app's folder should be).
        package var notFolders: [String] = []
        /// Damaged files moved aside (`<suite>.corrupt-<timestamp>.json`), sorted.
        package var quarantined: [String] = []
        /// The folders that could not be listed.
        package var unreadable: [UnreadableFolder] = []
    }

    /// Lists every folder under the root that can be listed; see ``Listing``.
    package func listing() -> Listing {
        var listing = Listing()
        let groups = SuiteLocation.groupsDirectory(root: root)
        list(groups, appID: nil, into: &listing)
        let apps = root + "/apps"
        do {
            for name in try names(in: apps).sorted() where !name.hasPrefix(".") {
                let path = apps + "/" + name
                guard let info = Self.info(path) else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    list(path, appID: name, into: &listing)
                } else {
                    listing.notFolders.append(path)
                }
            }
        } catch {
            listing.unreadable.append(Self.unreadable(error, apps))
        }
        listing.quarantined.sort()
        return listing
    }

    private func list(_ folder: String, appID: String?, into listing: inout Listing) {
        let names: [String]
        do {
            names = try self.names(in: folder)
        } catch {
            listing.unreadable.append(Self.unreadable(error, folder))
            return
        }
        if Self.info(folder) != nil { listing.folders.append(folder) }
        for name in suiteNames(among: names) {
            let entry = Entry(suiteName: name, appID: appID, path: folder + "/" + name + ".json")
            if appID != nil, Self.isImportRecord(name) {
                listing.importRecords.append(entry)
            } else {
                listing.suites.append(entry)
            }
        }
        listing.quarantined += names.filter { $0.contains(".corrupt-") && $0.hasSuffix(".json") }.map { folder + "/" + $0 }
    }

    private static func unreadable(_ error: SuiteStoreError, _ folder: String) -> UnreadableFolder {
        if case .unreadable(_, let reason) = error { return UnreadableFolder(path: folder, reason: reason) }
        return UnreadableFolder(path: folder, reason: error.description)
    }
}
