import BTCPriceFeature

/// The few escape sequences the terminal views use. Nothing else in the product emits any.
public enum ANSIStyle: String, Sendable {
  case green = "\u{1B}[32m"
  case red = "\u{1B}[31m"
  case bold = "\u{1B}[1m"
  case dim = "\u{1B}[2m"
  /// The failure banner: black on yellow, readable on dark and light themes.
  case banner = "\u{1B}[30;43m"

  public static let reset = "\u{1B}[0m"
  public static let hideCursor = "\u{1B}[?25l"
  public static let showCursor = "\u{1B}[?25h"
  /// BEL: the terminal's bell, rung once for a tick that fired an alert.
  public static let bell = "\u{07}"

  /// `text` wrapped in this style, or `text` itself when colours are off.
  public func apply(_ text: String, enabled: Bool) -> String {
    enabled && !text.isEmpty ? rawValue + text + Self.reset : text
  }

  /// `text` in green for a rise, red for a fall, and as it is otherwise or with colours off.
  static func paint(_ text: String, for direction: PriceChange.Direction?, enabled: Bool) -> String
  {
    switch direction {
    case .up: green.apply(text, enabled: enabled)
    case .down: red.apply(text, enabled: enabled)
    case .unchanged, nil: text
    }
  }

  /// `text` without escape sequences: what the terminal shows of it.
  static func visible(_ text: String) -> String {
    text.replacing(#/\u{1B}\[[0-9;?]*[A-Za-z]/#, with: "")
  }
}
