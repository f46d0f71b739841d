/// Turns a panel into the bytes that replace the previous panel on screen: cursor up over the
/// old one, each line cleared and rewritten, anything left below cleared.
public enum LiveFrame {
  public static func compose(_ lines: [String], replacingHeight previousHeight: Int) -> String {
    let up = previousHeight > 0 ? "\u{1B}[\(previousHeight)F" : ""
    return up + lines.map { "\u{1B}[2K" + $0 + "\n" }.joined() + "\u{1B}[J"
  }

  /// Moves back over a panel of `height` lines and clears it and everything below.
  public static func erase(height: Int) -> String {
    (height > 0 ? "\u{1B}[\(height)F" : "") + "\u{1B}[J"
  }
}
