extension SuiteStore {
    /// For a process that reads or writes a suite once and exits (`rizq-prefs get`, `set`,
    /// `list`): suites opened from now on set up no inotify watch, and make no folder to watch;
    /// every read checks the file's stamp first instead, so that it never returns a value older
    /// than the file. Nothing is delivered to change streams or observers for other processes'
    /// writes, and ``didChangeNotification`` is posted only for this process's own writes (not
    /// for a ``SuiteCommit/revert()``): a command that follows changes (`watch`) must not call it.
    package static func openWithoutWatching() {
        OpenSuite.watchesFiles.store(false, ordering: .relaxed)
    }
}
