/// A warning for stderr, a line of its own: `btc-price: warning: <message>`.
public enum WarningLine {
  public static func format(_ message: String) -> String {
    "btc-price: warning: \(message)\n"
  }
}
