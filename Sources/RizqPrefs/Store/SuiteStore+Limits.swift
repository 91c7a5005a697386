import RizqCore

extension SuiteStore {
    /// The largest suite file read or written (256 MiB): what device sync keeps the merged
    /// synced keys under, so that the suite, its sync state and its replica stay writable.
    package static var fileSizeLimit: Int { RegularFile.sizeLimit }
}
