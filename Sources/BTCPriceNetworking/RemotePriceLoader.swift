import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Loads a quote from one source over HTTP: its request, the transport, its mapper.
public struct RemotePriceLoader: PriceLoader {
  private let client: any HTTPClient
  private let request: HTTPRequest
  private let source: PriceSource
  private let map: PriceSourceDefinition.Mapper
  private let now: @Sendable () -> Date

  /// A loader for `definition`, at `url` (default: its real endpoint). `apiKey` is sent only if
  /// the source takes one.
  public init(
    client: any HTTPClient, definition: PriceSourceDefinition, url: URL? = nil,
    apiKey: String? = nil, now: @escaping @Sendable () -> Date
  ) {
    self.client = client
    self.request = definition.request(url: url, apiKey: apiKey)
    self.source = definition.source
    self.map = definition.map
    self.now = now
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
