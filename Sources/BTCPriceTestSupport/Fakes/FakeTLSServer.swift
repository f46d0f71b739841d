import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// TLS on 127.0.0.1 with a random port, in front of a plain server (the fake exchange): it ends
/// TLS with the certificate it is given and relays the bytes. For the tests of trust and of TLS
/// failures in words, with the certificates in `Tests/Fixtures/tls` (scripts/make-tls-fixtures).
public final class FakeTLSServer: Sendable {
  public let port: Int
  private let listener: any Channel

  private init(port: Int, listener: any Channel) {
    self.port = port
    self.listener = listener
  }

  /// - Parameters:
  ///   - certificate: a PEM file, the server's certificate.
  ///   - key: its PEM private key.
  ///   - backendPort: the plain server on 127.0.0.1 the decrypted bytes go to.
  public static func start(certificate: String, key: String, backendPort: Int) async throws
    -> FakeTLSServer
  {
    let configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
      privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
    let context = try NIOSSLContext(configuration: configuration)
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
          try channel.pipeline.syncOperations.addHandler(
            FakeTLSRelay(backendPort: backendPort))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return FakeTLSServer(port: listener.localAddress?.port ?? 0, listener: listener)
  }

  public func stop() async {
    try? await listener.close()
  }

  /// The folder of the committed TLS fixtures.
  public static func fixture(_ name: String, filePath: String = #filePath) -> String {
    // Sources/BTCPriceTestSupport/FakeTLSServer.swift → the package's root.
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent("Tests/Fixtures/tls/\(name)").path
  }
}

/// One TLS client's decrypted bytes, relayed to the plain server and back.
///
/// `@unchecked Sendable`: it lives on its channel's loop; the back connection is made there too.
final class FakeTLSRelay: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = ByteBuffer

  private let backendPort: Int
  private var backend: (any Channel)?
  private var pending: [ByteBuffer] = []

  init(backendPort: Int) {
    self.backendPort = backendPort
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    if let backend {
      backend.writeAndFlush(buffer, promise: nil)
      return
    }
    pending.append(buffer)
    guard pending.count == 1 else { return }
    // Connected on the first request, not on accept: a client that gives up during the handshake
    // then never reaches the backend, which may already be stopping.
    let front = context.channel
    ClientBootstrap(group: context.eventLoop)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(FakeProxyRelay(to: front))
        }
      }
      .connect(host: "127.0.0.1", port: backendPort)
      .whenComplete { result in
        switch result {
        case .success(let channel):
          self.backend = channel
          for buffer in self.pending { channel.write(buffer, promise: nil) }
          channel.flush()
          self.pending = []
        case .failure:
          front.close(promise: nil)
        }
      }
  }

  func channelInactive(context: ChannelHandlerContext) {
    backend?.close(promise: nil)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
