/// Names a price source. An open set: Core knows no source by name, so a new source needs no
/// change here (the sources this build can ask are listed by `PriceSourceRegistry`).
public struct PriceSource: Hashable, Sendable, CustomStringConvertible {
  /// Stable machine name, used in `--json`, the cache file and `--sources`.
  public let id: String
  /// Human-readable name for UIs.
  public let displayName: String

  public init(id: String, displayName: String) {
    self.id = id
    self.displayName = displayName
  }

  public var description: String { id }

  /// The source in `known` with this id, or an ad-hoc one named after the id (a source an older
  /// or newer build wrote into the cache).
  public static func named(_ id: String, among known: [PriceSource]) -> PriceSource {
    known.first { $0.id == id } ?? PriceSource(id: id, displayName: id)
  }
}
