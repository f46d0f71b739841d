import BTCPriceNetworking
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The TLS context of every connection the tool makes (HTTP and WebSocket), built once, when the
/// tool starts: building it reads the certificate authorities' files, and that must not happen
/// on the event loop that also answers the streams' pings, at a first connection or a
/// reconnection (ENGINEERING rule 11). A context that cannot be built (a `--ca-file` that does
/// not exist) fails every TLS connection with the error it failed with, as the first connection
/// used to; plain connections never need it.
public final class ClientTLS: Sendable {
  public let trust: TrustSource
  private let context: Result<NIOSSLContext, any Error>

  public init(trust: TrustSource = .system) {
    self.trust = trust
    self.context = Result {
      var configuration = TLSConfiguration.makeClientConfiguration()
      configuration.trustRoots = try Self.trustRoots(trust)
      return try NIOSSLContext(configuration: configuration)
    }
  }

  /// The context, or the error building it failed with.
  func makeContext() throws -> NIOSSLContext {
    try context.get()
  }

  /// The roots of `trust`, each read into memory now.
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
