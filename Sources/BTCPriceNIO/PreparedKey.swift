import NIOHTTP1

/// A request made ready once (``NIOHTTPClient`` caches them): where it goes, and its head.
typealias Prepared = (origin: Origin, head: HTTPRequestHead)

/// What makes two of our requests the same request.
struct PreparedKey: Hashable {
  let url: String
  let headers: [String]
}
