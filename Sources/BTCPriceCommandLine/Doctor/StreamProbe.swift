import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTerminal
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `doctor`'s look at a stream: opens it once as the ticks would (same proxy, same trust, same
/// subscription), and stops at its first message, its end, or `limit`.
public struct StreamProbe: Sendable {
  /// Opens connections; told when a connection's upgrade succeeded.
  public typealias Connect =
    @Sendable (_ onUpgrade: @escaping @Sendable () -> Void) -> any WebSocketConnector

  private let proxies: ProxySelector
  private let connect: Connect
  private let clock: any Clock<Duration>
  /// How long the connection, upgrade and first message may take together. Exchanges with a
  /// heartbeat speak within a second or two of the subscription; ten seconds leaves room for a
  /// slow proxy without making doctor slow to give up.
  private let limit: Duration

  public init(
    proxies: ProxySelector, limit: Duration = .seconds(10),
    clock: any Clock<Duration> = ContinuousClock(), connect: @escaping Connect
  ) {
    self.proxies = proxies
    self.limit = limit
    self.clock = clock
    self.connect = connect
  }

  /// The ticks' own transport: SwiftNIO's, through the run's proxies and trust.
  public static func nio(proxies: ProxySelector, trust: TrustSource) -> StreamProbe {
    StreamProbe(proxies: proxies) { onUpgrade in
      NIOWebSocketConnector(
        group: MultiThreadedEventLoopGroup.singleton, proxies: proxies, trust: trust,
        onUpgrade: onUpgrade)
    }
  }

  private enum Finding: Sendable {
    case message(PriceStreamMessage)
    case ended(PriceStreamError)
    case timedOut
  }

  public func check(_ endpoint: PriceStreamEndpoint) async -> DoctorStreamCheck {
    let upgraded = Locked(false)
    let connector = connect { upgraded.withValue { $0 = true } }
    let (clock, limit) = (ElapsedClock(self.clock), self.limit)
    let start = clock.now
    let (findings, report) = AsyncStream.makeStream(of: Finding.self)
    let connection = Task {
      let ending = await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) {
        inbound in
        guard case .text(let text) = inbound else { return nil }
        do throws(PriceStreamError) {
          report.yield(.message(try endpoint.read(text)))
          return nil
        } catch {
          return error
        }
      }
      report.yield(.ended(ending))
    }
    let timer = Task {
      try? await clock.sleep(for: limit)
      report.yield(.timedOut)
    }
    var first = Finding.timedOut
    for await finding in findings {
      first = finding
      break
    }
    let latency = start.duration(to: clock.now)
    connection.cancel()
    timer.cancel()
    await connection.value
    report.finish()
    let outcome: DoctorStreamCheck.Outcome
    switch first {
    case .message(let message): outcome = .message(message)
    case .ended(let error): outcome = .failed(error, upgraded: upgraded.value)
    case .timedOut: outcome = .failed(.silent(after: limit), upgraded: upgraded.value)
    }
    return DoctorStreamCheck(
      source: endpoint.source.id, url: endpoint.url.absoluteString,
      route: proxies.explain(for: endpoint.url), outcome: outcome, latency: latency)
  }
}
