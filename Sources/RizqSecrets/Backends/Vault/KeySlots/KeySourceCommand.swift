#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CProcessControl
import Foundation
import RizqCore

/// Runs the programs a key source needs (`systemd-creds`, a passphrase command): secrets go in on
/// stdin and come out on stdout, never in an argument; output is bounded; the caller waits at
/// most `timeout` seconds, then the program is killed with its whole process group (a shell's
/// children too, not only `/bin/sh`).
///
/// The program inherits only stdin, stdout and stderr (every other descriptor is closed in the
/// child, whatever its close-on-exec flag: a passphrase descriptor, the vault's files), and only
/// the environment ``Environment`` lets through — never the `RIZQ_SECRETS_*` settings or a
/// token some other variable holds.
enum KeySourceCommand {
    /// Which variables of this process's environment a program gets.
    enum Environment {
        /// `systemd-creds`: where programs are, the locale and time zone, and systemd's own
        /// `SYSTEMD_*` settings (`SYSTEMD_CREDENTIAL_SECRET` names another host key).
        case minimal
        /// A passphrase command (`pass show …`, `secret-tool lookup …`, `op read …`): ``minimal``
        /// and what such tools need to reach the user's agents and stores — `HOME`, `USER`,
        /// `LOGNAME`, `SHELL`, `TERM`, `TMPDIR`, the `XDG_*` folders, `DBUS_SESSION_BUS_ADDRESS`,
        /// `DISPLAY`, `WAYLAND_DISPLAY`, `SSH_AUTH_SOCK`, `GNUPGHOME`, `GPG_TTY`, `PASSWORD_STORE_*`.
        case passphraseCommand

        static let minimalNames: Set<String> = ["PATH", "LANG", "LANGUAGE", "TZ"]
        static let commandNames: Set<String> = [
            "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
            "XDG_CACHE_HOME", "XDG_STATE_HOME", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "SSH_AUTH_SOCK", "GNUPGHOME",
            "GPG_TTY",
        ]

        /// Whether the variable `name` goes to the program.
        func admits(_ name: String) -> Bool {
            if Self.minimalNames.contains(name) || name.hasPrefix("LC_") || name.hasPrefix("SYSTEMD_") { return true }
            guard self == .passphraseCommand else { return false }
            return Self.commandNames.contains(name) || name.hasPrefix("PASSWORD_STORE_")
        }

        /// `NAME=value` for every admitted variable of `environment`.
        func entries(of environment: [String: String]) -> [String] {
            environment.filter { admits($0.key) }.map { $0.key + "=" + $0.value }.sorted()
        }
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data

        /// The last line of stderr, for an error message (tools' diagnostics, never the secret:
        /// the secret is only ever on stdout).
        var diagnostic: String {
            let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
            return lines.last.map(String.init) ?? "no message"
        }
    }

    /// The most a key source is allowed to write on stdout: an identity or a passphrase.
    static let outputLimit = 64 * 1024

    static func run(
        _ executable: String, _ arguments: [String], input: Data?, timeout: Double, source: VaultKeySource, name: String,
        environment: Environment = .minimal
    ) throws(VaultError) -> Result {
        // stdin: the input is written whole into a pipe before the program starts (it is small,
        // within the pipe's buffer), so there is no writer thread and no SIGPIPE.
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard makePipe(&inputPipe) else { throw failure(source, name, "cannot create a pipe: \(PrivateFiles.errnoText(errno))") }
        defer { for fd in inputPipe where fd >= 0 { close(fd) } }
        if let input {
            guard input.count <= 60 * 1024 else { throw failure(source, name, "the input is larger than a pipe holds") }
            do throws(Errno) {
                try DescriptorIO.writeAll(input, to: inputPipe[1])
            } catch {
                throw failure(source, name, "cannot write its input: \(error)")
            }
        }
        close(inputPipe[1])
        inputPipe[1] = -1
        guard makePipe(&outputPipe) else { throw failure(source, name, "cannot create a pipe: \(PrivateFiles.errnoText(errno))") }
        defer { for fd in outputPipe where fd >= 0 { close(fd) } }
        guard makePipe(&errorPipe) else { throw failure(source, name, "cannot create a pipe: \(PrivateFiles.errnoText(errno))") }
        defer { for fd in errorPipe where fd >= 0 { close(fd) } }

        // A command may ask on the terminal (`age -d`, a pinentry): in its own process group it
        // must be the terminal's foreground group, or its first read stops it (SIGTTIN).
        let terminal = environment == .passphraseCommand ? ForegroundTerminal.open() : nil
        defer { terminal?.takeBack() }
        let pid = try spawn(
            executable, arguments, standard: (inputPipe[0], outputPipe[1], errorPipe[1]), terminal: terminal, environment: environment,
            source: source, name: name)
        close(inputPipe[0])
        inputPipe[0] = -1
        close(outputPipe[1])
        outputPipe[1] = -1
        close(errorPipe[1])
        errorPipe[1] = -1

        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        let (stdout, stderr) = try collect(pid, output: outputPipe[0], error: errorPipe[0], deadline: deadline, timeout: timeout, source: source, name: name)
        let exitStatus = try reap(pid, deadline: deadline, timeout: timeout, source: source, name: name)
        return Result(status: exitStatus, stdout: stdout, stderr: stderr)
    }

    /// Starts `executable` with `standard` as its descriptors 0, 1 and 2 and nothing else open,
    /// no blocked signals, default SIGPIPE, in a process group of its own (the terminal's
    /// foreground group when `terminal` is given), with `environment`'s variables only.
    private static func spawn(
        _ executable: String, _ arguments: [String], standard: (input: Int32, output: Int32, error: Int32), terminal: ForegroundTerminal?,
        environment: Environment, source: VaultKeySource, name: String
    ) throws(VaultError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standard.input, 0)
        posix_spawn_file_actions_adddup2(&actions, standard.output, 1)
        posix_spawn_file_actions_adddup2(&actions, standard.error, 2)
        if let terminal { _ = rizq_spawn_add_foreground(&actions, terminal.descriptor) }
        // Nothing but 0, 1 and 2 reaches the program, close-on-exec or not.
        let closing = rizq_spawn_add_close_from(&actions, 3)
        guard closing == 0 else { throw failure(source, name, "cannot close the other descriptors in the child: \(PrivateFiles.errnoText(closing))") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no blocked signals and default SIGPIPE, whatever this process set.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so that a time-out kills what it started too.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.entries(of: ProcessInfo.processInfo.environment).map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw failure(source, name, "cannot start \(executable): \(PrivateFiles.errnoText(spawned))") }
        return pid
    }

    /// Reads the program's stdout and stderr until it closes both (each kept up to
    /// ``outputLimit``, the rest read and dropped, so the program never blocks on a full pipe);
    /// past `deadline` the program's group is killed and the call times out.
    private static func collect(
        _ pid: pid_t, output: Int32, error: Int32, deadline: UInt64, timeout: Double, source: VaultKeySource, name: String
    ) throws(VaultError) -> (stdout: Data, stderr: Data) {
        var stdout = Data()
        var stderr = Data()
        var open: [Int32] = [output, error]
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !open.isEmpty {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                stop(pid)
                throw .timedOut(command: name, seconds: timeout)
            }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                let code = errno
                stop(pid)
                errno = code
                throw failure(source, name, "cannot wait for its output: \(PrivateFiles.errnoText(errno))")
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = read(descriptor.fd, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    open.removeAll { $0 == descriptor.fd }
                    continue
                }
                // Output past the limit is read and dropped, so the program never blocks on a full pipe.
                if descriptor.fd == output {
                    if stdout.count < outputLimit { stdout.append(contentsOf: buffer[0..<min(count, outputLimit - stdout.count)]) }
                } else if stderr.count < outputLimit {
                    stderr.append(contentsOf: buffer[0..<min(count, outputLimit - stderr.count)])
                }
            }
        }
        return (stdout, stderr)
    }

    /// Reaps the program once both pipes are closed (it has almost always exited), still within
    /// `deadline` in case it closed its output and kept running; its exit status (128 + the
    /// signal when a signal ended it).
    private static func reap(_ pid: pid_t, deadline: UInt64, timeout: Double, source: VaultKeySource, name: String) throws(VaultError) -> Int32 {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { throw failure(source, name, "cannot wait for it: \(PrivateFiles.errnoText(errno))") }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                stop(pid)
                throw .timedOut(command: name, seconds: timeout)
            }
            var none = pollfd()
            _ = poll(&none, 0, 5)
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// The controlling terminal, when this process is its foreground group: the program is made
    /// the foreground group while it runs, and the terminal is taken back afterwards.
    private struct ForegroundTerminal {
        let descriptor: Int32

        static func open() -> ForegroundTerminal? {
            let descriptor = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            guard tcgetpgrp(descriptor) == getpgrp() else {
                close(descriptor)
                return nil
            }
            return ForegroundTerminal(descriptor: descriptor)
        }

        /// Makes this process's group the foreground one again (SIGTTOU blocked meanwhile, as a
        /// background group's `tcsetpgrp` raises it), and closes the descriptor.
        func takeBack() {
            var blocked = sigset_t()
            var previous = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTTOU)
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            _ = tcsetpgrp(descriptor, getpgrp())
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            close(descriptor)
        }
    }

    /// Kills the program's whole process group (it leads it), then reaps the program.
    private static func stop(_ pid: pid_t) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// A pipe whose ends close on exec (glibc's pipe2 is not in Swift's Glibc module).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    private static func failure(_ source: VaultKeySource, _ name: String, _ detail: String) -> VaultError {
        .keySourceFailed(source: source, detail: "\(name): \(detail)")
    }
}
#endif
