/// Something the feed could not do that the user should hear about once.
public enum PriceFeedWarning: Equatable, Sendable {
  /// The cache exists but cannot be used; the feed starts with no known value.
  case cacheUnreadable(String)
  /// Saving a quote failed. Reported once per run of consecutive failures.
  case cacheNotSaved(String)

  /// The warning in words, the same in the terminal, in `serve`'s log and in the app's log.
  public var text: String {
    switch self {
    case .cacheUnreadable(let reason): reason
    case .cacheNotSaved(let reason): "\(reason) (will keep running without saving)"
    }
  }
}
