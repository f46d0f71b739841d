import BTCPriceCore
import BTCPriceNIO
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The routes of `btc-price serve`. Every response comes from the broadcaster's memory: no request
/// ever reaches an exchange.
///
/// | route | what |
/// |---|---|
/// | `GET /` | the page, state already rendered |
/// | `GET /api/price` | the `--json` object, `Cache-Control: max-age=1`, `ETag` |
/// | `GET /api/stream` | Server-Sent Events, one `price` event per tick |
/// | `GET /metrics` | Prometheus text |
/// | `GET /healthz` | `ok` |
/// | `/app.js`, `/app.css`, `/icon.svg`, `/manifest.webmanifest` | the page's files |
public struct PriceServer: Sendable {
  public struct Configuration: Sendable {
    public var host: String
    public var port: Int
    /// Open connections one client address may have.
    public var connectionsPerAddress: Int
    /// All open connections; further ones wait in the kernel's backlog.
    public var maximumConnections: Int
    /// Request line plus headers; a longer head is refused.
    public var maximumHeadBytes: Int
    /// A connection with no request in progress is closed after this long (streams are requests
    /// in progress and are never closed for it).
    public var idleTimeout: TimeAmount

    public init(
      host: String = "127.0.0.1", port: Int = 8080, connectionsPerAddress: Int = 32,
      maximumConnections: Int = 20_000, maximumHeadBytes: Int = 8 * 1024,
      idleTimeout: TimeAmount = .seconds(30)
    ) {
      self.host = host
      self.port = port
      self.connectionsPerAddress = connectionsPerAddress
      self.maximumConnections = maximumConnections
      self.maximumHeadBytes = maximumHeadBytes
      self.idleTimeout = idleTimeout
    }
  }

  public let broadcaster: PriceBroadcaster
  public let metrics: ServerMetrics
  /// The run's currency, for the web manifest.
  public let currency: Currency
  /// The armed alert rules, as the presenter lists them for the page; nil without rules.
  public let alertRules: String?
  private let streams: StreamHub

  public init(
    broadcaster: PriceBroadcaster, metrics: ServerMetrics, currency: Currency = .usd,
    alertRules: String? = nil
  ) {
    self.alertRules = alertRules
    self.broadcaster = broadcaster
    self.metrics = metrics
    self.currency = currency
    self.streams = StreamHub(broadcaster: broadcaster, onDrop: metrics.viewerDropped)
  }

  /// Stream viewers connected now.
  public var viewerCount: Int { streams.viewerCount }

  /// Stream viewers dropped so far for falling behind.
  public var droppedViewerCount: Int { streams.droppedCount }

  public func makeRouter() -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Before the routes: middleware applies to routes added after it, and to the 404 responder.
    router.add(middleware: GuardMiddleware.contentSecurity)
    router.add(middleware: GuardMiddleware())
    let (broadcaster, metrics, streams) = (self.broadcaster, self.metrics, self.streams)

    router.get("/") { request, _ in
      var response: Response
      if PlainTextAnswer.isWanted(
        accept: request.headers[.accept], userAgent: request.headers[.userAgent])
      {
        response = Self.response(
          PlainTextAnswer.render(broadcaster.latest), type: "text/plain; charset=utf-8",
          cache: "no-cache")
      } else {
        let body = PricePage.render(latest: broadcaster.latest, alertRules: alertRules)
        response = Self.response(body, type: "text/html; charset=utf-8", cache: "no-cache")
      }
      // A cache in between must not hand the page to curl, nor the text to a browser.
      response.headers[.vary] = "Accept, User-Agent"
      return response
    }
    router.get("/api/price") { request, _ in
      Self.priceResponse(broadcaster.latest, request: request)
    }
    router.get("/api/stream") { request, context in
      Self.streamResponse(streams, request: request, channel: context.channel)
    }
    router.get("/metrics") { _, _ in
      Self.response(
        metrics.render(
          latest: broadcaster.latest, viewers: streams.viewerCount),
        type: "text/plain; version=0.0.4; charset=utf-8",
        cache: "no-store")
    }
    router.get("/healthz") { _, _ in
      Self.response("ok\n", type: "text/plain; charset=utf-8", cache: "no-store")
    }
    let assets = [
      ("/app.js", PageAssets.script, "text/javascript; charset=utf-8"),
      ("/app.css", PageAssets.stylesheet, "text/css; charset=utf-8"),
      ("/icon.svg", PageAssets.icon, "image/svg+xml"),
      ("/manifest.webmanifest", PageAssets.manifest(currency), "application/manifest+json"),
    ]
    for (path, body, type) in assets {
      let buffer = ByteBuffer(string: body)
      router.get(RouterPath(path)) { _, _ in
        Response(
          status: .ok,
          headers: [.contentType: type, .cacheControl: "public, max-age=300"],
          body: .init(byteBuffer: buffer))
      }
    }
    return router
  }

  /// The server as a swift-service-lifecycle service, with the limits of `configuration`.
  public func makeApplication(
    configuration: Configuration, logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let limiter = ConnectionLimiter(limitPerAddress: configuration.connectionsPerAddress)
    let http1 = HTTP1Channel.Configuration(
      idleTimeout: configuration.idleTimeout,
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: configuration.maximumHeadBytes,
        maxHeaderListSize: configuration.maximumHeadBytes, maxHeaderFieldCount: 64))
    return Application(
      router: makeRouter(),
      server: HTTPServerBuilder { responder in
        LimitedHTTP1Channel(
          inner: HTTP1Channel(responder: responder, configuration: http1), limiter: limiter)
      },
      configuration: ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port),
        serverName: "btc-price",
        backlog: 1024,
        availableConnectionsDelegate: MaximumAvailableConnections(
          configuration.maximumConnections, logger: logger)),
      onServerRunning: onServerRunning,
      logger: logger)
  }

  // MARK: - Responses

  static func response(_ text: String, type: String, cache: String) -> Response {
    Response(
      status: .ok, headers: [.contentType: type, .cacheControl: cache],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// The `--json` line (with its newline), or `304` when the client already has it.
  static func priceResponse(_ event: PriceEvent, request: Request) -> Response {
    let body = event.json + "\n"
    let tag = entityTag(body)
    var headers: HTTPFields = [
      .contentType: "application/json",
      .cacheControl: "public, max-age=1",
      .eTag: tag,
      .accessControlAllowOrigin: "*",
    ]
    if let condition = request.headers[.ifNoneMatch], matches(condition, tag: tag) {
      headers[.contentType] = nil
      return Response(status: .notModified, headers: headers)
    }
    return Response(
      status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
  }

  static func streamResponse(_ streams: StreamHub, request: Request, channel: any Channel)
    -> Response
  {
    let lastEventID = ServerSentEvents.lastEventID(request.headers[.lastEventID])
    let headers: HTTPFields = [
      .contentType: "text/event-stream; charset=utf-8",
      .cacheControl: "no-cache, no-transform",
      .accessControlAllowOrigin: "*",
      // nginx: pass each event on at once instead of buffering the response.
      .xAccelBuffering: "no",
    ]
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { writer in
        // Joining here, not when the response is made, so a HEAD request never joins.
        guard let fanout = streams.fanout(for: channel.eventLoop) else {
          try await writer.finish(nil)
          return
        }
        let retry = ServerSentEvents.retryFrame(milliseconds: Int.random(in: 1_000..<4_000))
        // On the connection's own loop, the head and this first write reach the connection
        // before the fan-out's writes do.
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
          try await withTaskExecutorPreference(EventLoopExecutor(loop: channel.eventLoop)) {
            try await writer.write(ByteBuffer(string: retry))
            await fanout.serve(channel, lastEventID: lastEventID)
          }
        } else {
          try await writer.write(ByteBuffer(string: retry))
          await fanout.serve(channel, lastEventID: lastEventID)
        }
        try? await writer.finish(nil)
      })
  }

  /// A strong tag from the body's bytes (64-bit FNV-1a): equal bodies, equal tags.
  static func entityTag(_ body: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
  }

  /// `If-None-Match`: `*` or a list of tags, compared weakly (RFC 9110, 13.1.2).
  static func matches(_ condition: String, tag: String) -> Bool {
    let candidates = condition.split(separator: ",").map {
      $0.trimmingWhitespace
    }
    return candidates.contains { candidate in
      candidate == "*" || candidate == tag || candidate == "W/" + tag
    }
  }
}

extension HTTPField.Name {
  static let lastEventID = Self("Last-Event-ID")!
  static let xAccelBuffering = Self("X-Accel-Buffering")!
  static let permissionsPolicy = Self("Permissions-Policy")!
  static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
  static let xFrameOptions = Self("X-Frame-Options")!
  static let referrerPolicy = Self("Referrer-Policy")!
  static let xContentTypeOptions = Self("X-Content-Type-Options")!
}
