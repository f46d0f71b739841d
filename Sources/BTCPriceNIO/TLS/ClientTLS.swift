import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The TLS context of every connection the tool makes (HTTP and WebSocket). Building it reads
/// the certificate authorities' files, which must not happen on the event loop that also
/// answers the streams' pings (ENGINEERING rule 11): a run that will use TLS builds it when it
/// starts (``prepare()``); one that did not expect to (a redirect to `https`) has it built on
/// NIO's thread pool at its first TLS connection, which waits for it without blocking the loop.
/// A context that cannot be built (a `--ca-file` that does not exist) fails every TLS
/// connection with the error it failed with; plain connections never build it.
public final class ClientTLS: Sendable {
  public let trust: TrustSource
  private let built = NIOLockedValueBox<Result<NIOSSLContext, any Error>?>(nil)

  public init(trust: TrustSource = .system) {
    self.trust = trust
  }

  /// Builds the context now, on the calling thread (start-up, never an event loop), unless it
  /// is built already.
  public func prepare() {
    _ = result()
  }

  /// The context for a connection on `loop`: at once when it is built; otherwise built on the
  /// thread pool, never on `loop`.
  func context(on loop: any EventLoop) -> EventLoopFuture<NIOSSLContext> {
    if let built = built.withLockedValue({ $0 }) { return loop.makeCompletedFuture(built) }
    return NIOThreadPool.singleton.runIfActive(eventLoop: loop) { try self.result().get() }
  }

  /// The context, built outside the lock: the loop only ever reads it. Two first uses at once
  /// may both build it; the first one kept wins.
  private func result() -> Result<NIOSSLContext, any Error> {
    if let built = built.withLockedValue({ $0 }) { return built }
    let result = Result {
      var configuration = TLSConfiguration.makeClientConfiguration()
      configuration.trustRoots = try Self.trustRoots(trust)
      return try NIOSSLContext(configuration: configuration)
    }
    return built.withLockedValue { built in
      if let kept = built { return kept }
      built = result
      return result
    }
  }

  /// The roots of `trust`, each read into memory when the context is built.
  static func trustRoots(_ trust: TrustSource) throws -> NIOSSLTrustRoots {
    switch trust {
    case .system:
      // Linux: the system's bundle, read when the context is built (NIOSSL's
      // LinuxCABundle.swift names it); traced here, a handshake opens no file. Darwin: the
      // Security framework, which NIOSSL asks off the loop (SecTrustEvaluateAsync on a queue of
      // its own, SecurityFrameworkCertificateVerification.swift).
      return .default
    case .file(let path, _):
      return .file(path)
    case .directory(let path, _):
      return .certificates(try certificates(in: path))
    }
  }

  /// Every readable certificate in `path`: OpenSSL's hashed folders hold links to PEM files.
  private static func certificates(in path: String) throws -> [NIOSSLCertificate] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let certificates = names.sorted().flatMap { name in
      (try? NIOSSLCertificate.fromPEMFile(path + "/" + name)) ?? []
    }
    guard !certificates.isEmpty else {
      throw BTCHTTPClientError.tlsFailure("no certificates found in \(path)")
    }
    return certificates
  }
}
