import BTCPriceFeature

/// The default output: one line per tick, stable for scripts.
///
/// - `Nov 22, 14:03:05 - $68,901.23`
/// - `Failed to update value. Displaying last updated value from Nov 22, 14:03:05 - $68,901.23`
/// - `Failed to update value. Displaying last updated value from - - -` (nothing known yet)
/// - `Nov 22, 14:03:05 - $100,012.00 - Alert: above $100,000.00` (a tick that fired an alert)
///
/// With colours (terminals only) the price is green or red when it moved up or down since the
/// previous tick, and the banner is highlighted; the characters are otherwise the same.
public enum PlainLineRenderer {
  public static func render(_ state: PriceViewState) -> String {
    render(state, change: nil, colors: false)
  }

  public static func render(
    _ state: PriceViewState, change: PriceTrendViewState.Change?, colors: Bool
  ) -> String {
    let price = ANSIStyle.paint(
      state.priceText, for: state.isStale ? nil : change?.direction, enabled: colors)
    guard let banner = state.bannerText else {
      return "\(state.timestampText) - \(price)" + alertSuffix(state, colors: colors)
    }
    return "\(ANSIStyle.banner.apply(banner, enabled: colors)) - \(price)"
  }

  /// ` - Alert: above $100,000.00` on the tick that fired, so `grep Alert:` finds it.
  private static func alertSuffix(_ state: PriceViewState, colors: Bool) -> String {
    guard let alert = state.alert else { return "" }
    let text = "\(PricePresenter.alertPrefix) \(alert.text)"
    return " - " + ANSIStyle.banner.apply(text, enabled: colors)
  }
}
