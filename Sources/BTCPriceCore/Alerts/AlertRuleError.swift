/// A rule that is not one of the accepted forms; the message lists them, for the usage error.
public struct AlertRuleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The accepted forms, with an example of each.
  public static let acceptedForms =
    "above:PRICE, below:PRICE or move:PERCENT%/WINDOW"
    + " (e.g. above:100000, below:95000.50, move:2%/15m; PRICE in the run's currency,"
    + " WINDOW in s, m or h up to 24h)"

  /// What the user wrote.
  public let text: String

  public init(text: String) {
    self.text = text
  }

  public var description: String {
    "invalid alert rule \"\(text.prefix(60))\": expected \(Self.acceptedForms)"
  }
}
