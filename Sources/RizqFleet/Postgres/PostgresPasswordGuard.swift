#if Fleet
import NIOCore
import NIOSSL
import Synchronization

/// Keeps the role's password from going out in clear text (or as MD5, a hash a listener can
/// replay or guess from) over a connection whose server nobody verified: `sslmode` disable,
/// prefer or require without a root certificate — where anyone on the path can pose as the
/// server and ask for it. postgres-nio answers whatever method the server asks for, so this
/// handler reads the server's bytes ahead of it until authentication is settled, and when the
/// server asks for `password` or `md5` it closes the connection before a byte of the password
/// is sent. SCRAM-SHA-256 never shows the password and goes ahead; naming the method in the URL
/// (libpq's `require_auth=password` or `md5`) lets it through.
///
/// It sits at the head of the pipeline, where the server's first answer arrives in clear: to
/// postgres-nio's TLS request, `N` (none: the messages follow in clear, read here) or `S` (TLS:
/// once postgres-nio has put the TLS handler in, a second one is put after it, where the
/// messages arrive decrypted).
final class PostgresPasswordGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// What a guarded connection found, for the connector's error.
    final class Finding: Sendable {
        private let refused = Mutex<String?>(nil)
        /// The method the server asked for and that was refused, if any.
        var refusedMethod: String? { refused.withLock { $0 } }
        func refuse(_ method: String) { refused.withLock { $0 = $0 ?? method } }
    }

    private enum Phase {
        /// postgres-nio asked for TLS: the server's one-byte answer comes first.
        case awaitingTLSAnswer
        /// Messages, in clear here.
        case reading
    }

    private var phase: Phase
    private var pending = ByteBuffer()
    private let finding: Finding

    init(requestsTLS: Bool, finding: Finding) {
        phase = requestsTLS ? .awaitingTLSAnswer : .reading
        self.finding = finding
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        switch phase {
        case .awaitingTLSAnswer:
            let answer = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self)
            if answer == UInt8(ascii: "S") {
                context.fireChannelRead(data)
                // postgres-nio has put its TLS handler in (synchronously, reading the answer):
                // the messages are read after it, decrypted.
                if let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) {
                    _ = try? context.pipeline.syncOperations.addHandler(PostgresPasswordGuard(requestsTLS: false, finding: finding), position: .after(tls))
                }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            // `N` (or an error message): what follows is in clear. Read before it is passed on.
            phase = .reading
            if answer == UInt8(ascii: "N") { bytes.moveReaderIndex(forwardBy: 1) }
            pass(data, after: bytes.readableBytes > 0 ? inspect(&bytes, context: context) : .goOn, context: context)
        case .reading:
            pass(data, after: inspect(&bytes, context: context), context: context)
        }
    }

    private enum Verdict { case goOn, stop, settled }

    /// Passes `data` on unless the connection was closed; leaves the pipeline once
    /// authentication is settled.
    private func pass(_ data: NIOAny, after verdict: Verdict, context: ChannelHandlerContext) {
        guard verdict != .stop else { return }
        context.fireChannelRead(data)
        if verdict == .settled { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// Reads the messages `bytes` completes: at an authentication request for clear text or
    /// MD5 the connection is closed (nothing forwarded); at the end of authentication, the
    /// guard leaves the pipeline.
    private func inspect(_ bytes: inout ByteBuffer, context: ChannelHandlerContext) -> Verdict {
        pending.writeBuffer(&bytes)
        while pending.readableBytes >= 5 {
            guard let type = pending.getInteger(at: pending.readerIndex, as: UInt8.self),
                let length = pending.getInteger(at: pending.readerIndex + 1, as: Int32.self), length >= 4
            else { return close(context, method: "a message that is not PostgreSQL's") }
            guard pending.readableBytes >= Int(length) + 1 else { return .goOn }
            if type == UInt8(ascii: "R"), let code = pending.getInteger(at: pending.readerIndex + 5, as: Int32.self) {
                switch code {
                case 3: return close(context, method: "password (clear text)")
                case 5: return close(context, method: "md5")
                case 0, 10: return .settled
                default: break
                }
            } else if type == UInt8(ascii: "E") {
                return .settled
            }
            pending.moveReaderIndex(forwardBy: Int(length) + 1)
        }
        return .goOn
    }

    private func close(_ context: ChannelHandlerContext, method: String) -> Verdict {
        finding.refuse(method)
        context.close(promise: nil)
        return .stop
    }
}
#endif
