#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import RizqCore

/// Runs the programs a key source needs (`systemd-creds`, a passphrase command): secrets go in on
/// stdin and come out on stdout, never in an argument; output is bounded; the caller waits at
/// most `timeout` seconds, then the program is killed.
enum KeySourceCommand {
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

    static func run(_ executable: String, _ arguments: [String], input: Data?, timeout: Double, source: VaultKeySource, name: String) throws(VaultError) -> Result {
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw failure(source, name, "cannot start \(executable): \(PrivateFiles.errnoText(spawned))") }
        close(inputPipe[0])
        inputPipe[0] = -1
        close(outputPipe[1])
        outputPipe[1] = -1
        close(errorPipe[1])
        errorPipe[1] = -1

        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var stdout = Data()
        var stderr = Data()
        var open: [Int32] = [outputPipe[0], errorPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !open.isEmpty {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                throw .timedOut(command: name, seconds: timeout)
            }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                kill(pid, SIGKILL)
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
                if descriptor.fd == outputPipe[0] {
                    if stdout.count < outputLimit { stdout.append(contentsOf: buffer[0..<min(count, outputLimit - stdout.count)]) }
                } else if stderr.count < outputLimit {
                    stderr.append(contentsOf: buffer[0..<min(count, outputLimit - stderr.count)])
                }
            }
        }
        // Both pipes are closed: the program has (almost always) exited. Reap it, still within
        // the deadline in case it closed its output and kept running.
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { throw failure(source, name, "cannot wait for it: \(PrivateFiles.errnoText(errno))") }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw .timedOut(command: name, seconds: timeout)
            }
            var none = pollfd()
            _ = poll(&none, 0, 5)
        }
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, stdout: stdout, stderr: stderr)
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
