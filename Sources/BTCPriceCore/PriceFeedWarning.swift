/// Something the feed could not do that the user should hear about once.
public enum PriceFeedWarning: Equatable, Sendable {
  /// The cache exists but cannot be used; the feed starts with no known value.
  case cacheUnreadable(String)
  /// Saving a quote failed. Reported once per run of consecutive failures.
  case cacheNotSaved(String)
}
