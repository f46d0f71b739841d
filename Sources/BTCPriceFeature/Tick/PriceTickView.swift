/// A front end's view of the ticks: the terminal's session, `serve`'s broadcaster, the app's
/// screen, the widget's entry. ``PriceTickLoop`` decides everything a tick does; a view only lays
/// out what it is handed and writes it where it belongs.
public protocol PriceTickView: Sendable {
  /// A line for the diagnostic channel (stderr), said once when it becomes true: why no source
  /// gives a price, that prices are back, that two streams disagree or agree again. Told before
  /// the tick's ``show(_:)``. Views without such a channel (the app) ignore it.
  func notice(_ line: String)

  /// Shows one tick.
  ///
  /// - Throws: what ends the loop (stdout's reader went away, it cannot be written).
  func show(_ tick: PriceTick) async throws
}

extension PriceTickView {
  public func notice(_ line: String) {}
}
