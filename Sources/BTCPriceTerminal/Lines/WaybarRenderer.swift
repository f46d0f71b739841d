import BTCPriceCore
import BTCPriceFeature

/// `--waybar`: one JSON object per tick in the protocol of Waybar's custom module with
/// `"return-type": "json"` (one object per line; Waybar reads `text`, `alt`, `tooltip` and
/// `class`), keys always in this order:
///
/// ```
/// {"text":"€68,901.23","alt":"up","tooltip":"BTC/EUR €68,901.23\nLast updated Nov 22, 14:03:05 from Binance","class":"up"}
/// ```
///
/// - `class` (and `alt`, so `format-icons` can be keyed on it): `stale` while the shown value is
///   the last known one, `alert` on a tick that fired an alert, otherwise `up`, `down` or
///   `unchanged` since the previous tick (the first tick of a run is `unchanged`).
/// - `text`: the `--format` template when given (without colours), otherwise the price.
/// - `tooltip`: the pair and price, when and from where it came, and the failure banner while
///   stale, one per line, all in the presenter's words.
///
/// Waybar treats `text` and `tooltip` as Pango markup; nothing this renderer writes contains
/// markup characters, and a template's own text is passed through as written, so a template may
/// use markup (`<b>{price}</b>`) and must write `&amp;` for `&`.
public enum WaybarRenderer {
  public enum Class: String, Sendable, CaseIterable {
    case up, down, unchanged, stale, alert
  }

  public static func render(
    _ state: PriceViewState, change: PriceTrendViewState.Change?, template: PriceTemplate? = nil
  ) -> String {
    let cssClass = self.cssClass(state, change: change)
    let text =
      template?.render(state, change: change, colors: false) ?? state.priceText
    var tooltip = ["\(state.pairText) \(state.priceText)"]
    tooltip.append(state.sourceLineText ?? state.lastUpdatedText)
    if let banner = state.bannerText { tooltip.append(banner) }
    if let alert = state.alert { tooltip.append(alert.panelText) }
    let fields = [
      ("text", text), ("alt", cssClass.rawValue),
      ("tooltip", tooltip.joined(separator: "\n")), ("class", cssClass.rawValue),
    ]
    return "{"
      + fields.map { "\(JSONLineRenderer.string($0.0)):\(JSONLineRenderer.string($0.1))" }
      .joined(separator: ",") + "}"
  }

  /// `stale` wins over the direction: a stylesheet should show an old value as old.
  public static func cssClass(_ state: PriceViewState, change: PriceTrendViewState.Change?)
    -> Class
  {
    if state.isStale { return .stale }
    if state.alert != nil { return .alert }
    switch change?.direction {
    case .up: return .up
    case .down: return .down
    case .unchanged, nil: return .unchanged
    }
  }
}
