import BTCPriceCore
import BTCPriceRuntime
import NIOCore
import NIOHTTP1
import NIOPosix

/// A webhook receiver on 127.0.0.1 for the alert tests: records every request's path, headers
/// and body, and answers 200. Started on a chosen port, so a test can let the port refuse
/// connections first and bring the receiver up later ("down, then back").
public final class WebhookReceiver: Sendable {
  public struct Received: Sendable, Equatable {
    public let method: String
    public let path: String
    /// Header names lowercased.
    public let headers: [String: String]
    public let body: String
  }

  public let port: Int
  private let channel: any Channel
  private let received: Locked<[Received]>

  private init(port: Int, channel: any Channel, received: Locked<[Received]>) {
    self.port = port
    self.channel = channel
    self.received = received
  }

  /// Everything received so far, in order.
  public var requests: [Received] { received.value }

  public static func start(port: Int = 0) async throws -> WebhookReceiver {
    let received = Locked<[Received]>([])
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(Recorder(received: received))
        }
      }
      .bind(host: "127.0.0.1", port: port).get()
    return WebhookReceiver(
      port: channel.localAddress?.port ?? port, channel: channel, received: received)
  }

  public func stop() async {
    try? await channel.close()
  }

  private final class Recorder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let received: Locked<[Received]>
    private var head: HTTPRequestHead?
    private var body = ""

    init(received: Locked<[Received]>) {
      self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        self.head = head
        body = ""
      case .body(let part):
        body += String(buffer: part)
      case .end:
        guard let head else { return }
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        received.append(
          Received(method: "\(head.method)", path: head.uri, headers: headers, body: body))
        var fields = HTTPHeaders()
        fields.add(name: "Content-Length", value: "0")
        context.write(
          wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields))),
          promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      }
    }
  }
}
