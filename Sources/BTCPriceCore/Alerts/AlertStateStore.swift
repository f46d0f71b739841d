/// Keeps each threshold rule's ``AlertArming`` across runs, by ``AlertEngine`` key
/// (`above:100000 USD`). Contract as for ``PriceStore``: `load()` returns `[:]` when nothing was
/// saved and throws when what is stored cannot be read; `save(_:)` replaces it atomically.
public protocol AlertStateStore: Sendable {
  func load() throws -> [String: AlertArming]
  func save(_ states: [String: AlertArming]) throws
}
