#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One price alert the user asked for: `above:PRICE`, `below:PRICE` or `move:PERCENT%/WINDOW`.
///
/// Prices are in the run's currency and parsed exactly (``ExactDecimal``), never through `Double`:
/// `above:100000.10` means exactly that.
public struct AlertRule: Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    /// Fires when the price rises past the threshold.
    case above(Decimal)
    /// Fires when the price falls past the threshold.
    case below(Decimal)
    /// Fires when the price rises or falls by at least `percent` within `window`.
    case move(percent: Decimal, window: Duration)
  }

  /// The longest window a `move` rule may watch: a day of one-second ticks is still a small
  /// memory, and a longer watch is not what a ticker is for.
  public static let longestWindow = Duration.seconds(24 * 3600)

  public let kind: Kind

  public init(_ kind: Kind) {
    self.kind = kind
  }

  /// The rule as the user writes it, normalized: `above:100000.5`, `move:2%/15m`. Also its key in
  /// the state file.
  public var description: String {
    switch kind {
    case .above(let price): "above:\(price)"
    case .below(let price): "below:\(price)"
    case .move(let percent, let window): "move:\(percent)%/\(Self.windowText(window))"
    }
  }

  /// Reads a rule, or explains the forms it accepts.
  public static func parse(_ text: String) throws(AlertRuleError) -> AlertRule {
    let trimmed = text.trimmingWhitespace
    guard let colon = trimmed.firstIndex(of: ":") else { throw AlertRuleError(text: text) }
    let name = trimmed[..<colon].lowercased()
    let argument = String(trimmed[trimmed.index(after: colon)...])
    switch name {
    case "above":
      return AlertRule(.above(try positive(argument, in: text)))
    case "below":
      return AlertRule(.below(try positive(argument, in: text)))
    case "move":
      let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].hasSuffix("%") else { throw AlertRuleError(text: text) }
      let percent = try positive(String(parts[0].dropLast()), in: text)
      guard percent < 100, let window = window(String(parts[1])) else {
        throw AlertRuleError(text: text)
      }
      return AlertRule(.move(percent: percent, window: window))
    default:
      throw AlertRuleError(text: text)
    }
  }

  private static func positive(_ text: String, in rule: String) throws(AlertRuleError) -> Decimal {
    guard let value = ExactDecimal.parse(text, grammar: .plain), value > 0 else {
      throw AlertRuleError(text: rule)
    }
    return value
  }

  /// `30s`, `15m`, `4h`: whole units, from one second to ``longestWindow``.
  private static func window(_ text: String) -> Duration? {
    // Digits only: `Int64("+15")` reads a sign, which no window is written with. The count is
    // bounded before it is multiplied: a huge count of hours would overflow.
    guard let unit = text.last, let count = Int64(text.dropLast()), count > 0,
      count <= 24 * 3600, text.dropLast().allSatisfy({ ("0"..."9").contains($0) })
    else { return nil }
    let seconds: Int64
    switch unit {
    case "s": seconds = count
    case "m": seconds = count * 60
    case "h": seconds = count * 3600
    default: return nil
    }
    guard Duration.seconds(seconds) <= longestWindow else { return nil }
    return .seconds(seconds)
  }

  private static func windowText(_ window: Duration) -> String {
    let seconds = window.components.seconds
    if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
    if seconds % 60 == 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }
}
