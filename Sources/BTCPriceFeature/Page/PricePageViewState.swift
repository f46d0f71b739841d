/// What the web page shows for one tick, every text already worded by the presenter: the page's
/// script only places these and writes `timestamp` in the viewer's own time zone.
public struct PricePageViewState: Equatable, Sendable {
  /// `fresh`, `stale` or `empty` (nothing known): the page's styling hook.
  public let phase: String
  /// `up`, `down`, `unchanged`, or `none` when there is nothing to compare with.
  public let direction: String
  /// `BTC/EUR`.
  public let pairText: String
  /// `€68,901.23`, or `-`.
  public let priceText: String
  /// `▲ +€12.34`, `▼ -€5.00`, `• unchanged`, or empty.
  public let changeText: String
  /// `Last updated`, before the time.
  public let updatedText: String
  /// When the shown value was received, ISO 8601 in UTC; nil when nothing is known.
  public let timestamp: String?
  /// The same time for readers without the script: `Nov 22, 14:03:05 UTC`, or `-`.
  public let timeText: String
  /// `from Binance`, after the time; nil when nothing is known.
  public let sourceText: String?
  /// The failure banner's words before its time, while stale; nil otherwise.
  public let bannerText: String?
  /// The banner's words before its time when no event has come for ``silentAfterMilliseconds``:
  /// where nothing tells the page that its publisher is gone (an edge), it says so by itself,
  /// with the last price and its time.
  public let silentBannerText: String
  /// How long the page waits for the next event before it shows ``silentBannerText``.
  public let silentAfterMilliseconds: Int
  /// The tab's title: `€68,901.23 · BTC/EUR`.
  public let titleText: String
  /// What a screen reader hears when the state changes: the price coming back, the value turning
  /// stale (the banner, with its time, which the page adds), or nothing being known.
  public let stateAnnouncement: String
  /// What a screen reader hears at most once a minute while fresh: `Bitcoin price €68,901.23`.
  public let priceAnnouncement: String
  /// The sparkline's points in its 600 × 100 box.
  public let sparklinePoints: String
  /// `Price over the last 60 ticks`.
  public let sparklineLabel: String
  /// `▲ +$1,140.00 (+1.68%) in 24 hours`; empty while the price history cannot say.
  public var change24hText: String = ""
  /// `up`, `down`, `unchanged`, or `none` without a 24-hour change.
  public var change24hDirection: String = "none"
  /// The day's chart; nil without a price history.
  public var chart: PageChartViewState? = nil
  /// `$1 = 1,451 sats`: what one unit of the currency buys at the shown price; empty when
  /// nothing is known.
  public var satsText: String = ""

  /// Shown while the page has lost its stream and is reconnecting.
  public static let reconnectingText = "Reconnecting…"
  /// The button that asks the browser to show alerts as notifications.
  public static let notifyButtonText = "Notify me"
  /// Shown without the script.
  public static let noScriptText = "Reload the page for a newer price."

  /// The state as a JSON object, keys in a fixed order, for the page's event stream.
  public var json: String {
    let fields: [(String, String?)] = [
      ("phase", phase), ("direction", direction), ("pair", pairText), ("price", priceText),
      ("change", changeText), ("updated", updatedText), ("timestamp", timestamp),
      ("time", timeText), ("source", sourceText), ("banner", bannerText), ("title", titleText),
      ("announceState", stateAnnouncement), ("announcePrice", priceAnnouncement),
      ("sparkline", sparklinePoints), ("sparklineLabel", sparklineLabel),
      ("silentBanner", silentBannerText), ("change24h", change24hText),
      ("change24hDirection", change24hDirection), ("sats", satsText),
    ]
    return "{"
      + fields.map { "\"\($0.0)\":" + ($0.1.map(JSONLineRenderer.string) ?? "null") }
      .joined(separator: ",") + ",\"silentAfter\":\(silentAfterMilliseconds),"
      + "\"chart\":\(chart?.json ?? "null")}"
  }
}
