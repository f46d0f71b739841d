/// Remembers the last valid quote across runs.
///
/// Contract (checked by the store specs every implementation runs):
/// - `load()` returns `nil` when nothing was saved yet, and throws when what is stored cannot be
///   read or decoded. A failed load never destroys the stored value.
/// - `save(_:)` replaces the stored value atomically: a reader sees the old or the new quote,
///   never a mix; when it throws, the previous value is still there.
public protocol PriceStore: Sendable {
  func load() throws -> PriceQuote?
  func save(_ quote: PriceQuote) throws
}
