/// What a suite's layers were read from, and what was left out: what `rizq-prefs doctor` and
/// `list` show, and what ``SuiteStore/layerReport`` returns.
///
/// A layer file that fails the administrator's rule (``FileTrust/administrator(_:seenFromSandbox:)``:
/// root's, written by root alone, in root's folders), is too large, or is not a JSON object is
/// skipped — logged once, named here — and the other layers are still read.
package struct LayerReport: Sendable, Equatable {
    /// A folder looked in.
    package struct Folder: Sendable, Equatable {
        /// The layer it belongs to.
        package var layer: ValueSource.Layer
        /// The folder (for a layer, the one that holds the suite's file and its `.d` folder; when
        /// the layer has no root folder on this machine, that root).
        package var path: String
        /// Whether it exists.
        package var exists: Bool
    }

    /// A file read.
    package struct File: Sendable, Equatable {
        /// The layer it belongs to.
        package var layer: ValueSource.Layer
        /// The file.
        package var path: String
        /// The keys it sets, sorted (for the schema: the keys it describes).
        package var keys: [String]
    }

    /// A file left out, and why.
    package struct Skipped: Sendable, Equatable {
        /// The layer it would have belonged to.
        package var layer: ValueSource.Layer
        /// The file or folder.
        package var path: String
        /// What is wrong with it and what to do, in one line.
        package var reason: String
    }

    /// The folders looked in, in the order they were read.
    package var folders: [Folder] = []
    /// The files read, in the order they were applied (a later one wins within its layer).
    package var files: [File] = []
    /// What was left out.
    package var skipped: [Skipped] = []
    /// Entries of `$XDG_CONFIG_DIRS`, `$XDG_DATA_HOME` or `$XDG_DATA_DIRS` that were not used.
    package var refusedVariables: [String] = []

    package init() {}
}
