import BTCPriceSources
import NIOHTTP1

/// A request made ready once (``NIOHTTPClient`` caches them): where it goes, its head, and the
/// proxy it goes through.
typealias Prepared = (origin: Origin, head: HTTPRequestHead, route: ProxySelector.Route?)

/// What makes two of our requests the same request.
struct PreparedKey: Hashable {
  let url: String
  let headers: [String]
}
