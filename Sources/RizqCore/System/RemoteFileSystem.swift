#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// File systems on which inotify sees only this machine's own writes: network file systems and
/// FUSE (which is also what Docker Desktop's bind mounts on macOS and Windows are: virtiofs,
/// gRPC-FUSE). Whatever watches files with inotify checks this, and polls there too.
package enum RemoteFileSystem {
    /// The name of the network (or FUSE) file system `path` is on, or `nil` for a local one
    /// (or when `statfs` fails).
    package static func name(of path: String) -> String? {
        var info = statfs()
        guard statfs(path, &info) == 0 else { return nil }
        switch UInt64(bitPattern: Int64(info.f_type)) & 0xFFFF_FFFF {
        case 0x6969: return "NFS"
        case 0x517B: return "SMB"
        case 0xFF53_4D42, 0xFE53_4D42: return "CIFS/SMB2"
        case 0x6573_5546: return "FUSE"
        case 0x0102_1997: return "9p"
        case 0x00C3_6400: return "Ceph"
        case 0x5346_414F, 0x6B41_4653: return "AFS"
        case 0x7375_7245: return "Coda"
        case 0x564C: return "NCP"
        case 0x0BD0_0BD0: return "Lustre"
        case 0x0116_1970: return "GFS2"
        case 0x7461_636F: return "OCFS2"
        default: return nil
        }
    }
}
