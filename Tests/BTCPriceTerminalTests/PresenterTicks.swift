import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport

extension PricePresenter {
  /// The state the last of these fresh prices shows, and the history the ticks made, in order.
  func afterTicks(_ values: [String]) -> (PriceViewState, PriceHistory) {
    var history = PriceHistory()
    var state = presentRestored(nil)
    for value in values {
      state = present(.fresh(quote(value)))
      history.record(state)
    }
    return (state, history)
  }
}
