/// The product version, sent as `User-Agent: btc-price/<version>` and shown by `--version`.
public enum BTCPriceVersion {
  public static let current = "0.1.0"
  public static let userAgent = "btc-price/\(current)"
}
