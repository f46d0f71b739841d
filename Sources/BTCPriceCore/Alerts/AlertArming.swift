/// Where a threshold rule stands, kept across runs so that a restart neither fires again for a
/// crossing that already fired nor misses one that happened between two `--once` runs.
public enum AlertArming: String, Equatable, Sendable {
  /// The price is on the near side of the threshold: crossing it fires.
  case armed
  /// The rule fired, or the price was already past the threshold when first seen: it fires again
  /// only after the price has gone back by the re-arm margin.
  case fired
}
