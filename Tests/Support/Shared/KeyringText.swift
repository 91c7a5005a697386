/// Names and secrets of the kinds Python keyring's backend tests (`BackendBasicTests`) store:
/// ASCII letters, "difficult" characters (every ASCII white-space and punctuation character),
/// text with no ASCII at all, and a mix. Generated from a seed, so that a failure can be
/// replayed; the seed and the text are in the failure message (never a real secret).
public struct KeyringText: Sendable {
    /// ASCII letters and digits.
    public static let ascii = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// Python's `string.whitespace + string.punctuation`: what shells, argument parsers and
    /// line-based tools trip on (a leading `-`, quotes, `\n`, `\r`, `=`, `\`).
    public static let difficult = Array(" \t\n\r\u{0B}\u{0C}!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    /// Letters of several scripts, none of them ASCII: Arabic, Greek, Cyrillic, Devanagari,
    /// Japanese, Korean, an emoji with a skin tone, and a letter with a combining accent.
    public static let unicode = Array("مرحبابالعالمαβγδεζηθικλμνξπρστυφχψωжзийклмнопрстуфхцчшщэюяअआइईउऊकखगघあいうえおかきくけこ한국어키보드🔑👍🏽é\u{301}")

    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    /// `count` characters drawn from `alphabet`.
    public mutating func string(_ count: Int = 20, from alphabet: [Character] = KeyringText.ascii) -> String {
        String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }

    /// keyring's mixed case: ten of each kind, then twenty drawn from those thirty.
    public mutating func mixed() -> String {
        let source = Array(string(10, from: Self.unicode) + string(10) + string(10, from: Self.difficult))
        return string(20, from: source)
    }

    private mutating func next() -> UInt64 {
        // xorshift64*: small, fast, and the same on every machine.
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
