/// Delivers one fresh quote from one place, or throws a ``PriceSourceError``.
///
/// Implementations must honour task cancellation: the source chain cancels a load when its
/// deadline passes and waits for it to return.
public protocol PriceLoader: Sendable {
  func load() async throws -> PriceQuote
}
