import BTCPriceCore
import Foundation

/// Loads a quote from one HTTP endpoint through a pure mapper.
public struct RemotePriceLoader: PriceLoader {
  public typealias Mapper = @Sendable (HTTPResponse) throws(PriceSourceError) -> Decimal

  private let client: any HTTPClient
  private let request: HTTPRequest
  private let source: PriceSource
  private let map: Mapper
  private let now: @Sendable () -> Date

  public init(
    client: any HTTPClient,
    request: HTTPRequest,
    source: PriceSource,
    now: @escaping @Sendable () -> Date,
    map: @escaping Mapper
  ) {
    self.client = client
    self.request = request
    self.source = source
    self.now = now
    self.map = map
  }

  public func load() async throws -> PriceQuote {
    let response: HTTPResponse
    do {
      response = try await client.get(request)
    } catch let error as HTTPClientError {
      if case .bodyTooLarge = error { throw PriceSourceError.invalidData(error.description) }
      throw PriceSourceError.unreachable(error.description)
    }
    let value: Decimal
    do {
      value = try map(response)
    } catch {
      throw rateLimitAware(error, in: response)
    }
    return PriceQuote(value: value, currency: "USD", timestamp: now(), source: source)
  }

  /// 429 and 418 become ``PriceSourceError/rateLimited(status:retryAfter:message:)`` with the
  /// server's `Retry-After`, so the chain leaves the source alone for as long as it asked.
  private func rateLimitAware(_ error: PriceSourceError, in response: HTTPResponse)
    -> PriceSourceError
  {
    guard case .httpStatus(let status, let message) = error, status == 429 || status == 418 else {
      return error
    }
    let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.parse($0, now: now()) }
    return .rateLimited(status: status, retryAfter: retryAfter, message: message)
  }
}

extension RemotePriceLoader {
  /// A loader for one of the ``PriceSourceCatalog`` sources, at `url` (default: the real one).
  /// `apiKey` is sent only to sources that take one (CryptoCompare).
  public init(
    client: any HTTPClient, entry: PriceSourceCatalog.Entry, url: URL? = nil,
    apiKey: String? = nil, now: @escaping @Sendable () -> Date
  ) {
    self.init(
      client: client, request: entry.request(url ?? entry.defaultURL, apiKey),
      source: entry.source, now: now, map: entry.map)
  }

  public static func binance(
    client: any HTTPClient, url: URL = BinanceEndpoint.defaultURL,
    now: @escaping @Sendable () -> Date
  ) -> RemotePriceLoader {
    RemotePriceLoader(client: client, entry: .binance, url: url, now: now)
  }

  public static func cryptoCompare(
    client: any HTTPClient, url: URL = CryptoCompareEndpoint.defaultURL, apiKey: String?,
    now: @escaping @Sendable () -> Date
  ) -> RemotePriceLoader {
    RemotePriceLoader(client: client, entry: .cryptoCompare, url: url, apiKey: apiKey, now: now)
  }
}
