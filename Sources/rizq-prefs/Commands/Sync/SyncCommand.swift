#if CLI
import RizqCommandLine
import ArgumentParser

/// `rizq-prefs sync …`: a suite synced between the user's devices through a folder a sync
/// engine (Syncthing) shares.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync suites between your devices through a folder Syncthing (or another folder-sync engine) shares.",
        discussion: """
            Each device writes only its own replica file (replica-<device>.json) in the folder: the \
            synced keys, each with the stamp of its last change, and tombstones for deleted keys. \
            Each device merges the others' replicas key by key into its suite: per key, the newest \
            change wins; an edit made after seeing a value wins whatever the clocks say. A value \
            that looks like a credential is never synced. A running app that uses DeviceSync does \
            all of this by itself; 'sync now' does it once.

            This device's id is $RIZQ_PREFS_REPLICA_ID, else the one kept in \
            $XDG_STATE_HOME/rizq-prefs/replica-id (made on first use).
            """,
        subcommands: [
            SyncEnableCommand.self, SyncNowCommand.self, SyncStatusCommand.self, SyncMergeConflictsCommand.self,
            SyncForgetDeviceCommand.self,
        ])
}
#endif
