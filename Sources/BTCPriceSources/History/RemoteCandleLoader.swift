import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Loads one range of candles from one exchange over HTTP, as ``RemotePriceLoader`` loads a
/// price: its request, the transport, its mapper, and 429 and 418 turned into a rate limit with
/// the server's `Retry-After`.
public struct RemoteCandleLoader: Sendable {
  private let client: any BTCHTTPClient
  public let definition: CandleSourceDefinition
  private let currency: Currency
  /// The endpoint the requests go to, its pair set for the currency: where a limit it sets holds.
  public let url: URL
  private let now: @Sendable () -> Date

  /// A loader of `definition`'s candles of BTC in `currency`, at `url` (default: its real
  /// endpoint). Fails when the exchange has no candles in `currency`, or `url` has no pair part
  /// to set.
  public init(
    client: any BTCHTTPClient, definition: CandleSourceDefinition, currency: Currency,
    url: URL? = nil, now: @escaping @Sendable () -> Date
  ) throws(PriceSourceDefinition.MarketError) {
    self.url = try definition.request(for: .day, in: currency, base: url, now: now()).request.url
    self.client = client
    self.definition = definition
    self.currency = currency
    self.now = now
  }

  /// The history of `range`, as the exchange has it now.
  public func load(_ range: ChartRange) async throws -> CandleSeries {
    let asked = now()
    let (request, period) = try definition.request(for: range, in: currency, base: url, now: asked)
    let response = try await SourceAnswer.response(to: request, from: client)
    let candles: [Candle]
    do {
      candles = try definition.candles(in: response, for: currency, period: period)
    } catch {
      throw SourceAnswer.rateLimitAware(error, in: response, now: now())
    }
    do {
      return try CandleSeries(
        currency: currency, period: period, candles: candles, source: definition.source,
        fetchedAt: now())
    } catch {
      throw PriceSourceError.invalidData(error.description)
    }
  }
}
