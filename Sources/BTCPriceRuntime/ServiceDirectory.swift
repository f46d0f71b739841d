/// A folder that systemd made for the service running this process. A unit's
/// `CacheDirectory=btc-price` makes `/var/cache/btc-price`, owned by the unit's user (a
/// `DynamicUser=` one has no home folder at all), and names it in `$CACHE_DIRECTORY`; likewise
/// `StateDirectory=` (`$STATE_DIRECTORY`) and `ConfigurationDirectory=`
/// (`$CONFIGURATION_DIRECTORY`), systemd.exec(5), "RuntimeDirectory=, StateDirectory=, …".
/// These name the folder itself, not a base under which `btc-price/` goes as `XDG_*_HOME` do,
/// and they win over `XDG_*_HOME` and the home folder: only systemd sets them, for this unit.
public enum ServiceDirectory: String, Sendable, CaseIterable {
  case cache = "CACHE_DIRECTORY"
  case state = "STATE_DIRECTORY"
  case configuration = "CONFIGURATION_DIRECTORY"

  /// The variable's folder: the first of its paths (systemd joins several with `:`), when that
  /// one is absolute; nil when the variable is unset, empty or relative (not systemd's).
  public func path(in environment: [String: String]) -> String? {
    guard let value = environment[rawValue],
      let first = value.split(separator: ":", omittingEmptySubsequences: false).first,
      first.hasPrefix("/")
    else { return nil }
    var path = String(first)
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }
}
