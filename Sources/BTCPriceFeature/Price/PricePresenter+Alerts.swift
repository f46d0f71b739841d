import BTCPriceCore

/// The words of alerts, beside the price's.
extension PricePresenter {
  /// Prefix of every alert's line; also what marks it in the live panel.
  public static let alertPrefix = "Alert:"

  /// The rules a page lists: `Alerts: above $100,000.00 · up or down 2% within 15 min`; nil
  /// without rules.
  public func presentRules(_ rules: [AlertRule]) -> String? {
    guard !rules.isEmpty else { return nil }
    let texts = rules.map { rule in
      switch rule.kind {
      case .above(let threshold): "above \(PriceFormatter.format(threshold, currency: currency))"
      case .below(let threshold): "below \(PriceFormatter.format(threshold, currency: currency))"
      case .move(let percent, let window):
        "up or down \(percent)% within \(window.humanText)"
      }
    }
    return "Alerts: " + texts.joined(separator: " · ")
  }

  /// The alerts of one tick, worded; nil when none fired.
  public func presentAlerts(_ alerts: [PriceAlert]) -> AlertViewState? {
    guard let first = alerts.first else { return nil }
    let items = alerts.map(item)
    let time = timestamps.format(first.quote.timestamp)
    return AlertViewState(
      items: items,
      panelText: "\(Self.alertPrefix) \(items.map(\.text).joined(separator: "; ")) (\(time))")
  }

  private func item(_ alert: PriceAlert) -> AlertViewState.Item {
    let quote = alert.quote
    let currency = Currency.named(quote.currency) ?? self.currency
    let text: String
    switch alert.rule.kind {
    case .above(let threshold):
      text = "above \(PriceFormatter.format(threshold, currency: currency))"
    case .below(let threshold):
      text = "below \(PriceFormatter.format(threshold, currency: currency))"
    case .move(let percent, let window):
      let way = alert.direction == .up ? "up" : "down"
      text = "\(way) \(percent)% within \(window.humanText)"
    }
    let price = PriceFormatter.format(quote.value, currency: currency)
    let time = timestamps.format(quote.timestamp)
    return AlertViewState.Item(
      rule: alert.rule.description,
      direction: alert.direction.rawValue,
      text: text,
      title: "BTC \(text)",
      body: "\(price) at \(time) from \(quote.source.displayName)",
      environment: [
        "BTC_PRICE_ALERT_RULE": alert.rule.description,
        "BTC_PRICE_ALERT_PRICE": quote.value.plainText,
        "BTC_PRICE_ALERT_CURRENCY": quote.currency,
        "BTC_PRICE_ALERT_TIME": ISO8601Timestamp.format(quote.timestamp),
        "BTC_PRICE_ALERT_SOURCE": quote.source.id,
        "BTC_PRICE_ALERT_DIRECTION": alert.direction.rawValue,
        "BTC_PRICE_ALERT_TEXT": "BTC \(text): \(price)",
      ])
  }
}
