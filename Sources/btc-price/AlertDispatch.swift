import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the terminal's tick loop calls once per tick for alerts: the engine decides, the presenter
/// words, and the deliveries (`--on-alert`, `--notify`) start without being waited for.
struct AlertDispatch: Sendable {
  let engine: AlertEngine
  let presenter: PricePresenter

  /// The engine for the run's rules, with where they stood at the end of earlier runs; nil when
  /// the run has no rules.
  static func make(
    _ resolved: PipelineOptions.Resolved, clock: any Clock<Duration>, runStarted: Date,
    presenter: PricePresenter, warn: @escaping @Sendable (String) -> Void
  ) -> AlertDispatch? {
    guard !resolved.alerts.isEmpty else { return nil }
    let engine = AlertEngine(
      rules: resolved.alerts, currency: resolved.currency.code, clock: clock,
      runStarted: runStarted, store: resolved.alertStore, warn: warn)
    engine.restore()
    return AlertDispatch(engine: engine, presenter: presenter)
  }

  /// The tick's alerts, worded for the views; nil when none fired.
  ///
  /// - Parameter crossCheckRejected: the streams' cross-check rejected this price (issue 20);
  ///   false until that check exists.
  func tick(_ update: PriceUpdate, crossCheckRejected: Bool = false) -> AlertViewState? {
    presenter.presentAlerts(engine.evaluate(update, crossCheckRejected: crossCheckRejected))
  }
}
