import BTCPriceCore
import BTCPriceFeature

extension PriceTemplate {
  /// The line for one tick.
  ///
  /// - Parameters:
  ///   - state: what the presenter made of the tick.
  ///   - change: the change since the previous tick, as the presenter words it; nil while fewer
  ///     than two values are known.
  ///   - colors: whether to colour (terminals only; see ``ColorPolicy``).
  public func render(
    _ state: PriceViewState, change: PriceTrendViewState.Change?, colors: Bool = false
  ) -> String {
    let direction = state.isStale ? nil : change?.direction
    var line = ""
    for segment in segments {
      switch segment {
      case .literal(let text):
        line += text
      case .placeholder(let placeholder):
        line += value(of: placeholder, state, change, direction, colors)
      }
    }
    return line
  }

  private func value(
    of placeholder: Placeholder, _ state: PriceViewState, _ change: PriceTrendViewState.Change?,
    _ direction: PriceChange.Direction?, _ colors: Bool
  ) -> String {
    let unknown = PricePresenter.placeholder
    switch placeholder {
    case .price:
      return ANSIStyle.paint(state.priceText, for: direction, enabled: colors)
    case .priceInt:
      return ANSIStyle.paint(state.wholePriceText, for: direction, enabled: colors)
    case .priceShort:
      return ANSIStyle.paint(state.shortPriceText, for: direction, enabled: colors)
    case .sats:
      return state.record.satsPerUnit ?? ""
    case .amount:
      return state.record.price ?? unknown
    case .currency:
      return state.record.currency
    case .time:
      return state.timestampText
    case .source:
      return state.sourceName ?? unknown
    case .arrow:
      // A stale tick shows an old value: it did not move, whatever it is compared with.
      let arrow = direction == nil ? nil : change?.arrow
      return ANSIStyle.paint(
        arrow ?? PricePresenter.steadyArrow, for: direction, enabled: colors)
    case .change:
      return ANSIStyle.paint(change?.amountText ?? "", for: direction, enabled: colors)
    case .changePercent:
      return ANSIStyle.paint(change?.percentText ?? "", for: direction, enabled: colors)
    case .change24h:
      let day = state.change24h
      return ANSIStyle.paint(day?.amountText ?? "", for: day?.direction, enabled: colors)
    case .change24hPercent:
      let day = state.change24h
      return ANSIStyle.paint(day?.percentText ?? "", for: day?.direction, enabled: colors)
    case .change1h, .change1hPercent, .change7d, .change7dPercent, .change30d,
      .change30dPercent:
      guard let (period, percent) = placeholder.change, let moved = state.changes[period] else {
        return ""
      }
      return ANSIStyle.paint(
        percent ? moved.percentText : moved.amountText, for: moved.direction, enabled: colors)
    case .stale:
      return state.isStale
        ? ANSIStyle.banner.apply(PricePresenter.staleMarker, enabled: colors) : ""
    case .alert:
      return state.alert.map { ANSIStyle.banner.apply($0.text, enabled: colors) } ?? ""
    case .value:
      return state.holdings?.valueText ?? unknown
    case .valueChange24h:
      let day = state.holdings?.change24h
      return ANSIStyle.paint(day?.amountText ?? "", for: day?.direction, enabled: colors)
    case .pnl:
      let gain = state.holdings?.gain
      return ANSIStyle.paint(gain?.amountText ?? "", for: gain?.direction, enabled: colors)
    case .pnlPercent:
      let gain = state.holdings?.gain
      return ANSIStyle.paint(gain?.percentText ?? "", for: gain?.direction, enabled: colors)
    }
  }

}
