import BTCPriceCore

extension Settings {
  /// The tick interval the layers give, or ``PriceDefaults/interval`` when none does.
  public var effectiveInterval: Duration {
    interval.map { .seconds($0) } ?? PriceDefaults.interval
  }

  /// The first source's deadline the layers give, or ``PriceDefaults/primaryTimeout``.
  public var effectivePrimaryTimeout: Duration {
    primaryTimeout.map { .seconds($0) } ?? PriceDefaults.primaryTimeout
  }

  /// Whether the run keeps the price history, as the layers say, or ``PriceDefaults/history``
  /// (yes).
  public var effectiveHistory: Bool {
    history ?? PriceDefaults.history
  }

  /// Whether the streams come first, as the layers say, or ``PriceDefaults/stream`` (yes).
  public var effectiveStream: Bool {
    stream ?? PriceDefaults.stream
  }

  /// The currency the layers give, or US dollars.
  public var effectiveCurrency: Currency {
    currency ?? .usd
  }
}
