/// Where a setting's value came from: the first layer that gave it, or the default.
public enum SettingOrigin: Equatable, Sendable, CustomStringConvertible {
  case commandLine
  /// The environment variable that gave it.
  case environment(variable: String)
  case settingsFile
  case `default`

  /// As `doctor` says it: `command line`, `$BTC_PRICE_CURRENCY`, `settings file`, `default`.
  public var description: String {
    switch self {
    case .commandLine: "command line"
    case .environment(let variable): "$\(variable)"
    case .settingsFile: "settings file"
    case .default: "default"
    }
  }
}
