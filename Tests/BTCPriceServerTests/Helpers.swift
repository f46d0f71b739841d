import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceServer
import BTCPriceTestSupport
import Foundation

/// 2026-11-22 14:03:05 UTC
let receivedAt = Date(timeIntervalSince1970: 1_795_356_185)

let presenter = PricePresenter(
  timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

func fresh(_ value: String, source: PriceSource = .binance, at date: Date = receivedAt)
  -> PriceViewState
{
  presenter.present(.fresh(quote(value, source: source, at: date)))
}

func stale(
  _ lastKnown: PriceQuote?, reason: PriceSourceError = .timedOut(after: .milliseconds(800))
)
  -> PriceViewState
{
  presenter.present(
    .stale(
      lastKnown: lastKnown,
      failure: PriceFetchFailure(failures: [.init(source: .binance, error: reason)])))
}

let nothingKnown = presenter.presentRestored(nil)

/// Reads what a stream has delivered so far, without waiting for more.
func take<Element: Sendable>(_ count: Int, from stream: AsyncStream<Element>) async -> [Element] {
  var iterator = stream.makeAsyncIterator()
  var taken: [Element] = []
  while taken.count < count, let next = await iterator.next() {
    taken.append(next)
  }
  return taken
}

/// A sink like the stream's per-loop fan-out, which records what it is handed.
final class RecordingSink: PriceEventSink, @unchecked Sendable {
  private let recorded = Locked<(deliveries: [PriceBroadcaster.Delivery], finished: Bool)>(
    ([], false))

  var deliveries: [PriceBroadcaster.Delivery] { recorded.value.deliveries }
  var eventIDs: [Int] { deliveries.compactMap(\.eventID) }
  var finished: Bool { recorded.value.finished }

  func deliver(_ delivery: PriceBroadcaster.Delivery) {
    recorded.withValue { $0.deliveries.append(delivery) }
  }

  func finish() {
    recorded.withValue { $0.finished = true }
  }
}
