import BTCPriceCore
import BTCPriceNIO
import BTCPriceNetworking
import BTCPriceTerminal
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `doctor`'s look at a stream: opens it once as the ticks would (same proxy, same trust, same
/// subscription), and stops at its first message, its end, or `limit`.
struct StreamProbe {
  let proxies: ProxySelector
  let trust: TrustSource
  /// How long the connection, upgrade and first message may take together. Exchanges with a
  /// heartbeat speak within a second or two of the subscription; ten seconds leaves room for a
  /// slow proxy without making doctor slow to give up.
  var limit: Duration = .seconds(10)

  private enum Finding: Sendable {
    case message(PriceStreamMessage)
    case ended(PriceStreamError)
    case timedOut
  }

  func check(_ endpoint: PriceStreamEndpoint) async -> DoctorStreamCheck {
    let upgraded = Locked(false)
    let connector = NIOWebSocketConnector(
      group: MultiThreadedEventLoopGroup.singleton, proxies: proxies, trust: trust,
      onUpgrade: { upgraded.withValue { $0 = true } })
    let clock = ContinuousClock()
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
