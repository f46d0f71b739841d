import BTCPriceSources
import NIOCore
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Watches one connection's certificate checks, so that a failure can be told in words
/// (``TLSFailureReason``): BoringSSL itself only says "CERTIFICATE_VERIFY_FAILED".
///
/// It sees each certificate of the chain with the library's own verdict and changes nothing:
/// what it returns is that verdict. Confined to its connection's loop.
final class TLSCertificateObserver {
  /// The first certificate the library refused, and the last one it checked (the server's own).
  private(set) var refused: NIOSSLCertificate?
  private(set) var last: NIOSSLCertificate?

  func observe(_ result: NIOSSLVerificationResult, _ certificate: NIOSSLCertificate)
    -> NIOSSLVerificationResult
  {
    if result == .failed, refused == nil { refused = certificate }
    last = certificate
    return result
  }

  /// The TLS handler for `serverName`, reporting to this observer.
  func makeHandler(context: NIOSSLContext, serverName: String?) throws -> NIOSSLClientHandler {
    // The old-style callback is the one way to see the certificate the library refused without
    // taking the verification over; it is deprecated in favour of one that replaces
    // verification, so it is reached through a protocol requirement.
    try Self.make(NIOSSLClientHandler.self, context: context, serverName: serverName) {
      [self] result, certificate in
      observe(result, certificate)
    }
  }

  private static func make<Handler: ObservableTLSHandler>(
    _ type: Handler.Type, context: NIOSSLContext, serverName: String?,
    callback: @escaping NIOSSLVerificationCallback
  ) throws -> Handler {
    try Handler(context: context, serverHostname: serverName, verificationCallback: callback)
  }

  /// `error` (from NIOSSL or BoringSSL) as a reason in words, from what was observed.
  func reason(for error: any Error, host: String, now: Date) -> TLSFailureReason {
    let text = String(describing: error)
    if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
      return .wrongHost(expected: host, names: last.map(Self.names) ?? [])
    }
    if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG")
      || text.contains("UNEXPECTED_RECORD") || text.contains("HTTP_REQUEST")
    {
      return .notTLS
    }
    if text.contains("CERTIFICATE_VERIFY_FAILED") {
      let certificate = refused ?? last
      if let certificate {
        let notAfter = Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
        let notBefore = Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore))
        if notAfter < now { return .expired(on: notAfter) }
        if notBefore > now { return .notYetValid(from: notBefore) }
      }
      return .unknownIssuer
    }
    return .other(text)
  }

  private static func names(_ certificate: NIOSSLCertificate) -> [String] {
    certificate._subjectAlternativeNames().compactMap { name in
      guard name.nameType == .dnsName else { return nil }
      return name.contents.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
  }
}

/// NIOSSLClientHandler's initializer with the old-style verification callback (see
/// ``TLSCertificateObserver/makeHandler(context:serverName:)``).
protocol ObservableTLSHandler {
  init(
    context: NIOSSLContext, serverHostname: String?,
    verificationCallback: NIOSSLVerificationCallback?) throws
}

extension NIOSSLClientHandler: ObservableTLSHandler {}
