import BTCPriceAlerts
import BTCPriceCore
import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a front end's tick calls once for alerts: the engine decides, the presenter words, and
/// the deliveries (``AlertDeliveries``: `--on-alert`, `--notify`, `--alert-webhook`) start
/// without being waited for.
struct AlertDispatch: Sendable {
  let engine: AlertEngine
  let presenter: PricePresenter
  let deliveries: AlertDeliveries

  /// The engine for the run's rules, with where they stood at the end of earlier runs; nil when
  /// the run has no rules. `scope` keeps a kind of run's rules apart in the state file
  /// (`serve:`).
  static func make(
    _ resolved: PipelineOptions.Resolved, scope: String = "", deliveries: AlertDeliveries,
    clock: any Clock<Duration>, runStarted: Date, presenter: PricePresenter,
    warn: @escaping @Sendable (String) -> Void
  ) -> AlertDispatch? {
    guard !resolved.alerts.isEmpty else { return nil }
    let engine = AlertEngine(
      rules: resolved.alerts, currency: resolved.configuration.currency.code, clock: clock,
      runStarted: runStarted, store: resolved.alertStore, scope: scope, warn: warn)
    engine.restore()
    return AlertDispatch(engine: engine, presenter: presenter, deliveries: deliveries)
  }

  /// The tick's alerts, worded for the views, handed to the deliveries; nil when none fired. A
  /// price the streams' cross-check rejected is not the update's quote, so it can fire nothing.
  func tick(_ update: PriceUpdate) -> AlertViewState? {
    guard let state = presenter.presentAlerts(engine.evaluate(update)) else { return nil }
    deliveries.deliver(state)
    return state
  }
}
