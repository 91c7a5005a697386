import Glibc

/// Reads from `descriptor` into `buffer` until `count` bytes are in, the end of the file or an
/// error, retrying a read interrupted by a signal; returns how many bytes were read. The floors'
/// one read loop (`open`'s, `migrate`'s, the parse floor's, the inotify waiter's).
func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    var total = 0
    while total < count {
        let got = read(descriptor, buffer + total, count - total)
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { break }
        total += got
    }
    return total
}
