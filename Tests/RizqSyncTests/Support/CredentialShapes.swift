import Foundation
import RizqCredentials
import RizqTestSupport

/// One sample of every credential shape the classifier knows, made from its own list
/// (`CredentialFamily.all`): for each prefix family its prefix and a tail of its alphabet a
/// little longer than the family's minimum, and for each format family the fake tokens of
/// RizqTestSupport. A family added to the classifier gets a sample here without a change; a new
/// *format* family without a sample makes ``missingFormats`` non-empty, which a test checks.
enum CredentialShapes {
    /// A sample: the family it stands for, and the value (random, so that a search for it on
    /// disk finds only what this run wrote).
    struct Sample {
        let family: CredentialFamily
        let value: String
    }

    /// Samples of the format families, by family id.
    private static let formats: [String: [@Sendable () -> String]] = [
        CredentialFamily.jwt.id: [{ FakeToken.jwt() }],
        CredentialFamily.jwe.id: [{ FakeToken.jwe() }],
        CredentialFamily.sessionBlob.id: [{ FakeToken.base64Session() }],
        CredentialFamily.authorization.id: [{ FakeToken.bearer() }, { FakeToken.basic() }],
        CredentialFamily.pemPrivateKey.id: [{ FakeToken.pemPrivateKey() }],
        CredentialFamily.sessionCookie.id: [{ FakeToken.expressSessionCookie() }, { FakeToken.phpSessionCookie() }],
        CredentialFamily.urlWithPassword.id: [{
            "postgres://app:" + FakeToken.randomText(16) + "@db.internal:5432/app"
        }],
        CredentialFamily.telegramBotToken.id: [{
            // The bot's id never starts with 0.
            FakeToken.randomText(1, alphabet: "123456789") + FakeToken.randomText(9, alphabet: "0123456789") + ":"
                + FakeToken.randomText(35, alphabet: FakeToken.base64URLCharacters)
        }],
    ]

    /// Format families of the classifier that have no sample here.
    static var missingFormats: [String] {
        CredentialFamily.all.filter { $0.prefix.isEmpty && formats[$0.id] == nil }.map(\.id)
    }

    /// One sample per prefix (`ghp_`, `gho_`, … each), and every format sample.
    static func all() -> [Sample] {
        CredentialFamily.all.flatMap { family -> [Sample] in
            if family.prefix.isEmpty {
                return (formats[family.id] ?? []).map { Sample(family: family, value: $0()) }
            }
            return [Sample(family: family, value: family.prefix + tail(of: family))]
        }
    }

    /// Half as long again as the family's minimum (within its maximum), made of the letters and
    /// digits of its alphabet: a key of the family's usual length.
    private static func tail(of family: CredentialFamily) -> String {
        let count = min(family.maximumTail, max(family.minimumTail * 3 / 2, family.minimumTail + 4))
        let characters: String
        switch family.alphabet {
        case .hex: characters = "0123456789abcdef"
        case .upperAlphanumeric: characters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
        case .token, .base64URL, .alphanumeric: characters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        }
        return FakeToken.randomText(count, alphabet: characters)
    }
}

extension FakeToken {
    /// base64url's characters.
    static let base64URLCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
}
