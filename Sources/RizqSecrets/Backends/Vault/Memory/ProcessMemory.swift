#if Secrets
#if canImport(Glibc)
import Glibc
#endif
import CProcessControl

/// What keeps a process's memory, which may hold the vault's key and secrets, out of core dumps
/// and away from debuggers.
package enum ProcessMemory {
    /// Makes this process undumpable (`prctl(PR_SET_DUMPABLE, 0)`) for the rest of its life: no
    /// core dump, no `ptrace` attach or `/proc/PID/mem` read by another process of the same user
    /// (root still can), its `/proc/PID` files root's. A command-line tool that unlocks the vault
    /// calls it before any key material is in memory; an app decides for itself (a debugger
    /// cannot attach afterwards). Returns whether it took effect.
    @discardableResult
    package static func refuseDumps() -> Bool {
        rizq_set_dumpable(0) == 0
    }

    /// Whether this process may be dumped (`PR_GET_DUMPABLE`).
    package static var isDumpable: Bool {
        rizq_get_dumpable() != 0
    }
}
#endif
