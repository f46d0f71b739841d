/// The alerts one tick fired, already worded, for every view and delivery: the terminal line,
/// `--format`'s `{alert}`, `--json`, Waybar, the live panel, `--on-alert`, `--notify`.
public struct AlertViewState: Equatable, Sendable {
  /// One fired rule.
  public struct Item: Equatable, Sendable {
    /// The rule as written in settings: `above:100000`.
    public let rule: String
    /// `up` or `down`.
    public let direction: String
    /// `above $100,000.00`, `down 2% within 15 min`.
    public let text: String
    /// A desktop or browser notification's title: `BTC above $100,000.00`.
    public let title: String
    /// Its body: `$100,012.00 at Nov 22, 14:03:05 from Binance`.
    public let body: String
    /// What `--on-alert`'s command gets: `BTC_PRICE_ALERT_RULE`, `_PRICE`, `_CURRENCY`, `_TIME`,
    /// `_SOURCE`, `_DIRECTION`, `_TEXT`.
    public let environment: [String: String]
  }

  public let items: [Item]

  /// Every fired rule's text, for one line: `above $100,000.00; up 2% within 15 min`.
  public var text: String {
    items.map(\.text).joined(separator: "; ")
  }

  /// The live panel's line: `Alert: above $100,000.00 (Nov 22, 14:03:05)`.
  public let panelText: String
}
