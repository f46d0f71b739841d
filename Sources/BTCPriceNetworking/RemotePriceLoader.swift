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
    let response: BTCHTTPResponse
    do {
      response = try await client.get(request)
    } catch let error as BTCHTTPClientError {
      if case .bodyTooLarge = error { throw PriceSourceError.invalidData(error.description) }
      throw PriceSourceError.unreachable(error.description)
    }
    let value: Decimal
    do {
      value = try definition.map(response, in: currency)
    } catch {
      throw rateLimitAware(error, in: response)
    }
    return PriceQuote(value: value, currency: currency.code, timestamp: now(), source: source)
  }

  /// 429 and 418 become ``PriceSourceError/rateLimited(status:retryAfter:message:)`` with the
  /// server's `Retry-After`, so the chain leaves the source alone for as long as it asked.
  private func rateLimitAware(_ error: PriceSourceError, in response: BTCHTTPResponse)
    -> PriceSourceError
  {
    guard case .httpStatus(let status, let message) = error, status == 429 || status == 418 else {
      return error
    }
    let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.parse($0, now: now()) }
    return .rateLimited(status: status, retryAfter: retryAfter, message: message)
  }
}
