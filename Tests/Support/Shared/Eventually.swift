import Foundation

/// Waits until `condition` holds, looking again every few milliseconds; returns whether it held
/// before `timeout` seconds passed. For a state another thread or process reaches at its own
/// pace: the bound only stops a test that would otherwise hang, it measures nothing.
public func eventually(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
