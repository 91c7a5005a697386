#if Secrets
/// What one ``VaultSecretStore`` last read or wrote, each part keyed by the stamp of the file it
/// came from, so that a read costs a `stat` of each file while nothing changed. Held in memory
/// only (never written anywhere), filled only by successful reads and writes, and emptied by
/// any failure and by ``VaultSecretStore/lock()``.
struct VaultReadCache: Sendable {
    /// `recipient.txt`'s text, for the file with `stamp`.
    struct Recipient: Sendable {
        let stamp: FileStamp
        let recipient: String
    }

    /// `vault.age`'s decoded contents, for the file with `stamp`, decrypted with the identity
    /// of `recipient`.
    struct Contents: Sendable {
        let stamp: FileStamp
        let recipient: String
        let contents: VaultContents
    }

    var recipient: Recipient?
    var contents: Contents?

    /// The cached contents if they are those of the file with `stamp` under `recipient`.
    func contents(stamp: FileStamp, recipient: String) -> VaultContents? {
        guard let contents, contents.stamp == stamp, contents.recipient == recipient else { return nil }
        return contents.contents
    }
}
#endif
