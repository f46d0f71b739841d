import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Loads a quote from one source over HTTP: its request, the transport, its mapper.
public struct RemotePriceLoader: PriceLoader {
  private let client: any BTCHTTPClient
  private let request: BTCHTTPRequest
  /// The source this loader asks.
  public let source: PriceSource
  private let currency: Currency
  private let definition: PriceSourceDefinition
  private let now: @Sendable () -> Date

  /// A loader that asks `definition` for BTC in `currency` at `url`, the market's own URL: the
  /// pair part already set for the currency (``PricePipeline/Configuration/marketURLs``; a
  /// source's real endpoint is its USD market). Answers in another currency are refused, quotes
  /// stamped with `currency`. `apiKey` is sent only if the source takes one.
  public init(
    client: any BTCHTTPClient, definition: PriceSourceDefinition, currency: Currency, url: URL,
    apiKey: String? = nil, now: @escaping @Sendable () -> Date
  ) {
    self.client = client
    self.request = definition.request(url: url, apiKey: apiKey)
    self.source = definition.source
    self.currency = currency
    self.definition = definition
    self.now = now
  }

  public func load() async throws -> PriceQuote {
    let response = try await SourceAnswer.response(to: request, from: client)
    let value: Decimal
    do {
      value = try definition.map(response, in: currency)
    } catch {
      throw SourceAnswer.rateLimitAware(error, in: response, now: now())
    }
    return PriceQuote(value: value, currency: currency.code, timestamp: now(), source: source)
  }
}
