#if CLI
import RizqCommandLine
import ArgumentParser

/// `rizq-prefs`: the root command.
struct RizqPrefsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rizq-prefs",
        abstract: "Read and change RizqPrefs preferences and Secret Service tokens.",
        discussion: """
            Works on the same suite files and keyring items as the apps that use RizqPrefs: what \
            'defaults' is on macOS and 'secret-tool' on Linux, in one tool.

            SUITES
              A suite is one JSON file. --app ID names the app (default: $RIZQ_PREFS_APP_ID); \
            without --suite a command works on that app's standard suite; --suite NAME on another \
            suite of the app, and --suite group.NAME on an app-group suite, shared by all of the \
            user's apps.

            ENVIRONMENT
              RIZQ_PREFS_HOME     the root of all suite files (default: $XDG_CONFIG_HOME/rizq-prefs, \
            else ~/.config/rizq-prefs)
              RIZQ_PREFS_APP_ID   the app id when --app is not given
              XDG_CONFIG_HOME     see RIZQ_PREFS_HOME
              XDG_CONFIG_DIRS     where an administrator's layers are read (default: /etc/xdg)
              XDG_DATA_HOME, XDG_DATA_DIRS   where installed schemas are read
              DBUS_SESSION_BUS_ADDRESS   the session bus that the Secret Service is reached on

            FILES
              <root>/apps/<app id>/<suite>.json    an app's suites
              <root>/groups/group.NAME.json        app-group suites
              <suite>.corrupt-<time>.json          a damaged file, moved aside byte for byte
              <dir>/rizq-prefs/managed/apps/<app id>/<suite>.json, <suite>.d/*.json
                                                   an administrator's forced values (<dir>: each of \
            $XDG_CONFIG_DIRS, default /etc/xdg; groups: managed/groups/group.NAME.json)
              <dir>/rizq-prefs/defaults/…          an administrator's defaults, laid out the same way
              <dir>/rizq-prefs/schemas/apps/<app id>/<suite>.schema.json
                                                   the suite's schema (<dir>: $XDG_DATA_HOME, then each \
            of $XDG_DATA_DIRS)

            EXIT STATUS
              0  success
              1  not found: no such key or secret
              2  usage error: bad option or argument, invalid suite name, a value that does not \
            parse as its type, an import file that is missing or not a JSON object
              3  storage error: a suite file or folder is unreadable, damaged or not writable
              4  a secret backend (the Secret Service, the vault) is unavailable, locked, read-only, or failed,\
            or none can store secrets here
              5  stdout could not be written (a full disk, an I/O error): what was printed is incomplete
              6  (fleet) the fleet engine is unreachable or refused; nothing was written
              7  (fleet) superseded: a later change of the key, made elsewhere, won
              8  the key is locked by an administrator (a managed layer file); nothing was written

            Errors are one line on stderr that names the cause and the fix.

            EXAMPLES
              rizq-prefs set --app com.rizq.app current_streak 12 --int
              rizq-prefs get --app com.rizq.app current_streak
              rizq-prefs list --suite group.com.rizq.app
              rizq-prefs watch --suite group.com.rizq.app --json
              printf '%s' "$TOKEN" | rizq-prefs secret set --app com.rizq.app auth_token
              rizq-prefs doctor
              rizq-prefs schema --app com.rizq.app
              rizq-prefs describe --app com.rizq.app daily_goal
              rizq-prefs get --app com.rizq.app update_channel --source
              rizq-prefs sync enable com.rizq.app --folder ~/Sync/rizq-app --keys theme_mode
            """,
        version: PackageVersion.current,
        subcommands: [
            GetCommand.self, SetCommand.self, DeleteCommand.self, ListCommand.self, SuitesCommand.self,
            DescribeCommand.self, RangeCommand.self, WritableCommand.self,
            ExportCommand.self, ImportCommand.self, WatchCommand.self, SecretStubCommand.self, DoctorStubCommand.self,
            ImportAppStubCommand.self, SchemaCommand.self, SyncCommand.self, FleetStubCommand.self,
        ])

    @OptionGroup var verbosity: Verbosity
}
#endif
