#if Secrets
/// The name Firefox gives an installation in `profiles.ini` (`[Install3B6073811A6ABF12]`) and
/// `installs.ini`: CityHash64 (version 1.0, the copy in Firefox's sources) of the UTF-16LE
/// code units of the folder that holds the `firefox` executable, in upper-case hexadecimal
/// (`nsXREDirProvider::GetInstallHash`). Debian's `firefox-esr` lives in `/usr/lib/firefox-esr`,
/// whose hash is `3B6073811A6ABF12`.
///
/// It tells which profile is the default of the Firefox installed here when several
/// installations share one `profiles.ini`.
enum FirefoxInstallHash {
    /// The hash of the installation folder `folder` (`/usr/lib/firefox-esr`).
    static func of(installFolder folder: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(folder.utf16.count * 2)
        for unit in folder.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return String(CityHash64.hash(bytes), radix: 16, uppercase: true)
    }
}
#endif
