import Foundation
import RizqCore
import RizqTestSupport
import Synchronization
import XCTest

private let interruptions = Atomic<Int>(0)

/// The errno plumbing: a call a signal interrupts is made again, and any other failure comes
/// back typed.
final class ErrnoTests: XCTestCase {
    func testAReadThatASignalInterruptsIsMadeAgain() throws {
        // A handler without SA_RESTART: a blocked read(2) then fails with EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR1, &action, &previous), 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd); close(writeEnd) }
        let calls = Atomic<Int>(0)
        let result = Mutex<Result<Int, Errno>?>(nil)
        let readerThread = Mutex<pthread_t?>(nil)
        let reader = Thread {
            readerThread.withLock { $0 = pthread_self() }
            var byte: UInt8 = 0
            let outcome = Result { () throws(Errno) -> Int in
                try Errno.retryingOnInterrupt {
                    calls.add(1, ordering: .relaxed)
                    return read(readEnd, &byte, 1)
                }
            }
            result.withLock { $0 = outcome }
        }
        reader.start()
        XCTAssertTrue(eventually { readerThread.withLock { $0 != nil } })
        // Signalled until its blocked read was interrupted and made again (a signal that lands
        // before the read starts interrupts nothing: signal again).
        XCTAssertTrue(eventually {
            if let thread = readerThread.withLock({ $0 }) { pthread_kill(thread, SIGUSR1) }
            return calls.load(ordering: .relaxed) >= 2
        }, "the read was never interrupted and retried")
        var byte: UInt8 = 42
        XCTAssertEqual(write(writeEnd, &byte, 1), 1)
        XCTAssertTrue(eventually { result.withLock { $0 != nil } })
        XCTAssertEqual(try result.withLock { $0 }?.get(), 1)
        XCTAssertGreaterThan(interruptions.load(ordering: .relaxed), 0)
    }

    func testAnyOtherFailureComesBackAsItsErrno() {
        XCTAssertThrowsError(try Errno.retryingOnInterrupt { open("/nonexistent/rizq-errno-test", O_RDONLY) }) { error in
            XCTAssertEqual(error as? Errno, .noSuchFile)
            XCTAssertEqual((error as? Errno)?.description, "No such file or directory")
        }
    }

    func testWriteAllReportsAFullDevice() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try XCTSkipIf(descriptor < 0, "no /dev/full")
        defer { close(descriptor) }
        let bytes = [UInt8](repeating: 7, count: 100)
        var failure: Errno?
        bytes.withUnsafeBytes { buffer in
            do throws(Errno) {
                try DescriptorIO.writeAll(buffer, to: descriptor)
            } catch {
                failure = error
            }
        }
        XCTAssertEqual(failure, .noSpace)
    }
}
