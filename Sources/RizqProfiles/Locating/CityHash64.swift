#if Secrets
/// CityHash64 v1.0.x (Geoff Pike and Jyrki Alakuijala, 2011), as Firefox carries it, over
/// little-endian loads. Only what ``FirefoxInstallHash`` needs.
enum CityHash64 {
    private static let k0: UInt64 = 0xc3a5_c85c_97cb_3127
    private static let k1: UInt64 = 0xb492_b66f_be98_f273
    private static let k2: UInt64 = 0x9ae1_6a3b_2f90_404f
    private static let k3: UInt64 = 0xc949_d7c7_509e_6557

    /// The hash of `bytes`.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        let length = bytes.count
        if length <= 16 { return hashLength0to16(bytes) }
        if length <= 32 { return hashLength17to32(bytes) }
        if length <= 64 { return hashLength33to64(bytes) }

        // Longer input: the end first, then 64-byte chunks with 56 bytes of state.
        var x = load64(bytes, 0)
        var y = load64(bytes, length - 16) ^ k1
        var z = load64(bytes, length - 56) ^ k0
        var v = weakHash32(bytes, length - 64, UInt64(length), y)
        var w = weakHash32(bytes, length - 32, UInt64(length) &* k1, k0)
        z = z &+ shiftMix(v.1) &* k1
        x = rotate(z &+ x, 39) &* k1
        y = rotate(y, 33) &* k1
        var remaining = (length - 1) & ~63
        var offset = 0
        repeat {
            x = rotate(x &+ y &+ v.0 &+ load64(bytes, offset + 16), 37) &* k1
            y = rotate(y &+ v.1 &+ load64(bytes, offset + 48), 42) &* k1
            x ^= w.1
            y ^= v.0
            z = rotate(z ^ w.0, 33)
            v = weakHash32(bytes, offset, v.1 &* k1, x &+ w.0)
            w = weakHash32(bytes, offset + 32, z &+ w.1, y)
            swap(&z, &x)
            offset += 64
            remaining -= 64
        } while remaining != 0
        return hashLength16(hashLength16(v.0, w.0) &+ shiftMix(y) &* k1 &+ z, hashLength16(v.1, w.1) &+ x)
    }

    private static func load64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private static func load32(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<4).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private static func rotate(_ value: UInt64, _ shift: UInt64) -> UInt64 {
        shift == 0 ? value : (value >> shift) | (value << (64 - shift))
    }

    private static func shiftMix(_ value: UInt64) -> UInt64 {
        value ^ (value >> 47)
    }

    private static func hashLength16(_ u: UInt64, _ v: UInt64) -> UInt64 {
        let multiplier: UInt64 = 0x9ddf_ea08_eb38_2d69
        var a = (u ^ v) &* multiplier
        a ^= a >> 47
        var b = (v ^ a) &* multiplier
        b ^= b >> 47
        return b &* multiplier
    }

    private static func hashLength0to16(_ bytes: [UInt8]) -> UInt64 {
        let length = bytes.count
        if length > 8 {
            let a = load64(bytes, 0)
            let b = load64(bytes, length - 8)
            return hashLength16(a, rotate(b &+ UInt64(length), UInt64(length))) ^ b
        }
        if length >= 4 {
            let a = load32(bytes, 0)
            return hashLength16(UInt64(length) &+ (a << 3), load32(bytes, length - 4))
        }
        if length > 0 {
            let y = UInt32(bytes[0]) &+ (UInt32(bytes[length >> 1]) << 8)
            let z = UInt32(length) &+ (UInt32(bytes[length - 1]) << 2)
            return shiftMix(UInt64(y) &* k2 ^ UInt64(z) &* k3) &* k2
        }
        return k2
    }

    private static func hashLength17to32(_ bytes: [UInt8]) -> UInt64 {
        let length = bytes.count
        let a = load64(bytes, 0) &* k1
        let b = load64(bytes, 8)
        let c = load64(bytes, length - 8) &* k2
        let d = load64(bytes, length - 16) &* k0
        return hashLength16(rotate(a &- b, 43) &+ rotate(c, 30) &+ d, a &+ rotate(b ^ k3, 20) &- c &+ UInt64(length))
    }

    private static func weakHash32(_ w: UInt64, _ x: UInt64, _ y: UInt64, _ z: UInt64, _ seedA: UInt64, _ seedB: UInt64) -> (UInt64, UInt64) {
        var a = seedA &+ w
        var b = rotate(seedB &+ a &+ z, 21)
        let c = a
        a = a &+ x
        a = a &+ y
        b = b &+ rotate(a, 44)
        return (a &+ z, b &+ c)
    }

    private static func weakHash32(_ bytes: [UInt8], _ offset: Int, _ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
        weakHash32(load64(bytes, offset), load64(bytes, offset + 8), load64(bytes, offset + 16), load64(bytes, offset + 24), a, b)
    }

    private static func hashLength33to64(_ bytes: [UInt8]) -> UInt64 {
        let length = bytes.count
        var z = load64(bytes, 24)
        var a = load64(bytes, 0) &+ (UInt64(length) &+ load64(bytes, length - 16)) &* k0
        var b = rotate(a &+ z, 52)
        var c = rotate(a, 37)
        a = a &+ load64(bytes, 8)
        c = c &+ rotate(a, 7)
        a = a &+ load64(bytes, 16)
        let vf = a &+ z
        let vs = b &+ rotate(a, 31) &+ c
        a = load64(bytes, 16) &+ load64(bytes, length - 32)
        z = load64(bytes, length - 8)
        b = rotate(a &+ z, 52)
        c = rotate(a, 37)
        a = a &+ load64(bytes, length - 24)
        c = c &+ rotate(a, 7)
        a = a &+ load64(bytes, length - 16)
        let wf = a &+ z
        let ws = b &+ rotate(a, 31) &+ c
        let r = shiftMix((vf &+ ws) &* k2 &+ (wf &+ vs) &* k0)
        return shiftMix(r &* k0 &+ vs) &* k2
    }
}
#endif
