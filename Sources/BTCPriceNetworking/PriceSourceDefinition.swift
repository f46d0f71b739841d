import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything the product knows about one price source, in one value: its name, its real
/// endpoint, how a request to it is built, how its answer is read, and what to tell the user when
/// it refuses us. ``PriceSourceRegistry/all`` lists them; the command-line options, the cache's
/// display names and the tests' fake exchange are all derived from that list.
public struct PriceSourceDefinition: Sendable {
  /// Reads a source's answer into a price, or says why it is not one.
  public typealias Mapper = @Sendable (HTTPResponse) throws(PriceSourceError) -> Decimal

  /// How a source that takes an API key wants it sent.
  public struct APIKeyUse: Sendable {
    /// The header the key goes in, e.g. `Authorization`.
    public let header: String
    /// What precedes the key in that header, e.g. `Apikey `.
    public let prefix: String
    /// The environment variable the command-line tool reads the key from.
    public let environmentVariable: String
  }

  public let source: PriceSource
  /// The real endpoint.
  public let defaultURL: URL
  /// How the source takes an API key; nil for keyless sources, which are never sent one.
  public let apiKey: APIKeyUse?
  public let map: Mapper
  /// What the user can do when this source refuses us, where that says more than the general
  /// advice (see ``advice(for:coolDown:apiKeyGiven:)``); nil for the general advice.
  let specificAdvice: @Sendable (_ status: Int, _ pause: String, _ apiKeyGiven: Bool) -> String?

  public init(
    source: PriceSource, defaultURL: URL, apiKey: APIKeyUse? = nil, map: @escaping Mapper,
    specificAdvice:
      @escaping @Sendable (_ status: Int, _ pause: String, _ apiKeyGiven: Bool) ->
      String? = { _, _, _ in nil }
  ) {
    self.source = source
    self.defaultURL = defaultURL
    self.apiKey = apiKey
    self.map = map
    self.specificAdvice = specificAdvice
  }

  /// The option that points this source at another server: `binance-url`.
  public var urlOptionName: String { "\(source.id)-url" }

  /// The environment variable with the same meaning: `BTC_PRICE_BINANCE_URL`.
  public var urlEnvironmentVariable: String { "BTC_PRICE_\(source.id.uppercased())_URL" }

  /// The request for one price: `User-Agent: btc-price/<version>` always, and the API key only
  /// to a source that takes one, and only when it is not empty.
  public func request(url: URL? = nil, apiKey key: String? = nil) -> HTTPRequest {
    var headers = [(name: "User-Agent", value: BTCPriceVersion.userAgent)]
    if let apiKey, let key, !key.isEmpty {
      headers.append((name: apiKey.header, value: apiKey.prefix + key))
    }
    return HTTPRequest(url: url ?? defaultURL, headers: headers)
  }
}
