import BTCPriceSources
import NIOCore
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Sits right after the TLS handler and turns its failures into
/// ``BTCHTTPClientError/tlsFailure(_:)`` with a ``TLSFailureReason`` in words.
final class TLSFailureExplainer: ChannelInboundHandler {
  typealias InboundIn = NIOAny

  private let observer: TLSCertificateObserver
  private let host: String

  init(observer: TLSCertificateObserver, host: String) {
    self.observer = observer
    self.host = host
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    switch error {
    case NIOSSLError.uncleanShutdown:
      context.fireErrorCaught(error)
    case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
      let reason = observer.reason(for: error, host: host, now: Date())
      context.fireErrorCaught(TransportError.tlsFailure(reason.description))
    default:
      context.fireErrorCaught(error)
    }
  }
}
