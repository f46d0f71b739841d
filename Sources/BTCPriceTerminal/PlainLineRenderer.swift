import BTCPriceFeature

/// The default output: one line per tick, stable for scripts.
///
/// - `Nov 22, 14:03:05 - $68,901.23`
/// - `Failed to update value. Displaying last updated value from Nov 22, 14:03:05 - $68,901.23`
/// - `Failed to update value. Displaying last updated value from - - -` (nothing known yet)
public enum PlainLineRenderer {
  public static func render(_ state: PriceViewState) -> String {
    "\(state.bannerText ?? state.timestampText) - \(state.priceText)"
  }
}
