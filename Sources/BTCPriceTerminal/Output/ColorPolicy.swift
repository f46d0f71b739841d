/// Whether to colour output: only on a terminal, never when `NO_COLOR` is set to a non-empty
/// value (no-color.org) or `TERM` is `dumb`.
public enum ColorPolicy {
  public static func useColors(isTerminal: Bool, environment: [String: String]) -> Bool {
    isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }
}
