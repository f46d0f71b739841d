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
    let value = try map(response)
    return PriceQuote(value: value, currency: "USD", timestamp: now(), source: source)
  }
}

extension RemotePriceLoader {
  public static func binance(
    client: any HTTPClient, url: URL = BinanceEndpoint.defaultURL,
    now: @escaping @Sendable () -> Date
  ) -> RemotePriceLoader {
    RemotePriceLoader(
      client: client, request: BinanceEndpoint.request(url: url), source: .binance, now: now,
      map: BinancePriceMapper.map)
  }

  public static func cryptoCompare(
    client: any HTTPClient, url: URL = CryptoCompareEndpoint.defaultURL, apiKey: String?,
    now: @escaping @Sendable () -> Date
  ) -> RemotePriceLoader {
    RemotePriceLoader(
      client: client, request: CryptoCompareEndpoint.request(url: url, apiKey: apiKey),
      source: .cryptoCompare, now: now, map: CryptoCompareMapper.map)
  }
}
