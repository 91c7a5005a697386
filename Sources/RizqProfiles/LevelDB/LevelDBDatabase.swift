#if Secrets
import CProfileLibraries

/// A LevelDB database opened through the real library's C API, for reading every record in key
/// order. The library applies `CURRENT`/`MANIFEST`, replays the logs, decompresses snappy
/// tables, and hides deleted and overwritten records (newest wins).
///
/// Open only private copies (``PrivateCopy``): opening takes the database's `LOCK` and may
/// write a new table from the log.
final class LevelDBDatabase {
    private let handle: OpaquePointer

    /// Why the library refused: its own message (which names the file).
    struct Failure: Error {
        var message: String
    }

    /// Opens the database in `folder`, which must exist; checksums are verified.
    init(folder: String) throws(Failure) {
        if let problem = ProfileLibrary.leveldb.loadProblem() { throw Failure(message: problem) }
        let options = rizq_leveldb_options_create()
        defer { rizq_leveldb_options_destroy(options) }
        rizq_leveldb_options_set_create_if_missing(options, 0)
        // Corruption is an error, not silently skipped data.
        rizq_leveldb_options_set_paranoid_checks(options, 1)
        var error: UnsafeMutablePointer<CChar>?
        let opened = rizq_leveldb_open(options, folder, &error)
        if let error {
            defer { rizq_leveldb_free(error) }
            if let opened { rizq_leveldb_close(opened) }
            throw Failure(message: String(cString: error))
        }
        guard let opened else { throw Failure(message: "the library returned no database") }
        handle = opened
    }

    deinit {
        rizq_leveldb_close(handle)
    }

    /// Calls `body` with each live record's key and value bytes, in key order. The buffers are
    /// valid only during the call.
    func forEachRecord(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) throws(Failure) {
        let options = rizq_leveldb_readoptions_create()
        defer { rizq_leveldb_readoptions_destroy(options) }
        rizq_leveldb_readoptions_set_verify_checksums(options, 1)
        rizq_leveldb_readoptions_set_fill_cache(options, 0)
        guard let iterator = rizq_leveldb_create_iterator(handle, options) else { throw Failure(message: "the library returned no iterator") }
        defer { rizq_leveldb_iter_destroy(iterator) }
        rizq_leveldb_iter_seek_to_first(iterator)
        while rizq_leveldb_iter_valid(iterator) != 0 {
            var keyLength = 0
            var valueLength = 0
            let key = rizq_leveldb_iter_key(iterator, &keyLength)
            let value = rizq_leveldb_iter_value(iterator, &valueLength)
            body(UnsafeRawBufferPointer(start: key, count: keyLength), UnsafeRawBufferPointer(start: value, count: valueLength))
            rizq_leveldb_iter_next(iterator)
        }
        var error: UnsafeMutablePointer<CChar>?
        rizq_leveldb_iter_get_error(iterator, &error)
        if let error {
            defer { rizq_leveldb_free(error) }
            throw Failure(message: String(cString: error))
        }
    }
}
#endif
