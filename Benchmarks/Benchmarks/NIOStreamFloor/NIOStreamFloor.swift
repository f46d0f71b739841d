import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What SwiftNIO itself costs for btc-price's streaming second, for scripts/measure
/// (docs/PERFORMANCE.md, "The SwiftNIO floor"): the two streams btc-price's default settings
/// open (Binance's trades; Coinbase's ticker and heartbeat, after its subscribe message) over
/// plain `ws://` on loopback, with NIOPosix, NIOHTTP1's client upgrade and NIOWebSocket's frame
/// codec, no TLS, no compression; the price found by a byte search, no JSON tree; pings
/// answered; Binance's newest price written once a second on an absolute grid. One event loop
/// thread; the main thread only waits. Between btc-price and the C floor
/// (scripts/measure-stream-floor.c): the transport and the Swift runtime, none of the product.
///
/// Usage: nio-stream-floor [--read-on-tick] PORT BINANCE_PATH COINBASE_PATH (runs until killed
/// or a stream ends). Without the flag each frame is read as it arrives (a wake-up a message,
/// as the C floor); with it, autoRead is off once subscribed and each tick reads what the
/// kernel holds for each socket, as btc-price does.
@main
enum NIOStreamFloor {
  static let usage = "usage: nio-stream-floor [--read-on-tick] PORT BINANCE_PATH COINBASE_PATH\n"
  /// What btc-price sends Coinbase (CoinbaseStream.swift, market BTC-USD).
  static let coinbaseSubscription =
    #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker","heartbeat"]}"#

  enum Failure: Error {
    case connect(errno: CInt)
    case notUpgraded
  }

  static func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let readOnTick = arguments.first == "--read-on-tick"
    if readOnTick { arguments.removeFirst() }
    guard arguments.count == 3, let port = Int(arguments[0]), (1...65535).contains(port) else {
      _ = usage.withCString { write(2, $0, strlen($0)) }
      exit(2)
    }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let binance = try open(port: port, path: arguments[1], field: #""p":""#, on: loop)
    let coinbase = try open(port: port, path: arguments[2], field: #""price":""#, on: loop)
    try loop.submit {
      binance.reader.value.start(subscription: nil, readOnTick: readOnTick)
      coinbase.reader.value.start(subscription: coinbaseSubscription, readOnTick: readOnTick)
      FloorTicker(
        loop: loop, streams: [binance.reader.value, coinbase.reader.value],
        readOnTick: readOnTick
      ).run()
    }.wait()
    let ended = loop.makePromise(of: Void.self)
    binance.channel.closeFuture.cascade(to: ended)
    coinbase.channel.closeFuture.cascade(to: ended)
    try? ended.futureResult.wait()
    exit(0)
  }

  /// Connects and upgrades one stream. The socket is our own, handed to SwiftNIO connected, so
  /// that a tick can ask the kernel about it directly (``FloorStreamReader/readForTick()``).
  static func open(port: Int, path: String, field: String, on loop: any EventLoop) throws -> (
    channel: any Channel, reader: NIOLoopBound<FloorStreamReader>
  ) {
    let descriptor = try connectedSocket(port: port)
    let upgraded = loop.makePromise(of: NIOLoopBound<FloorStreamReader>.self)
    let channel = try ClientBootstrap(group: loop)
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let upgrader = NIOTypedWebSocketClientUpgrader<NIOLoopBound<FloorStreamReader>>(
            maxFrameSize: 1 << 16, enableAutomaticErrorHandling: false,
            upgradePipelineHandler: { channel, _ in
              channel.eventLoop.makeCompletedFuture {
                let reader = FloorStreamReader(field: field, descriptor: descriptor)
                try channel.pipeline.syncOperations.addHandler(reader)
                return NIOLoopBound(reader, eventLoop: channel.eventLoop)
              }
            })
          var headers = HTTPHeaders()
          headers.add(name: "Host", value: "127.0.0.1:\(port)")
          let configuration = NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: HTTPRequestHead(
              version: .http1_1, method: .GET, uri: path, headers: headers),
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
              channel.eventLoop.makeFailedFuture(Failure.notUpgraded)
            })
          try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: .init(upgradeConfiguration: configuration)
          ).cascade(to: upgraded)
        }
      }
      .withConnectedSocket(descriptor).wait()
    return (channel, try upgraded.futureResult.wait())
  }

  /// A TCP connection to 127.0.0.1:`port`, made before the loop has anything to do.
  static func connectedSocket(port: Int) throws -> CInt {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure.connect(errno: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      close(descriptor)
      throw Failure.connect(errno: error)
    }
    return descriptor
  }
}
