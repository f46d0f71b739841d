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
  /// `--on-alert`'s command, for `/bin/sh -c`.
  let command: String?
  /// `--notify`'s program, when it was found.
  let notifier: DesktopNotifier?
  let runner: AlertCommandRunner

  /// The engine for the run's rules, with where they stood at the end of earlier runs; nil when
  /// the run has no rules.
  static func make(
    _ resolved: PipelineOptions.Resolved, clock: any Clock<Duration>, runStarted: Date,
    presenter: PricePresenter, environment: [String: String],
    warn: @escaping @Sendable (String) -> Void
  ) -> AlertDispatch? {
    guard !resolved.alerts.isEmpty else { return nil }
    var notifier: DesktopNotifier?
    if resolved.notify {
      switch DesktopNotifier.find(environment: environment) {
      case .success(let found): notifier = found
      case .failure(let missing): warn(missing.description)
      }
    }
    let engine = AlertEngine(
      rules: resolved.alerts, currency: resolved.configuration.currency.code, clock: clock,
      runStarted: runStarted, store: resolved.alertStore, warn: warn)
    engine.restore()
    return AlertDispatch(
      engine: engine, presenter: presenter, command: resolved.onAlert, notifier: notifier,
      runner: AlertCommandRunner(warn: warn))
  }

  /// The tick's alerts, worded for the views; nil when none fired. A price the streams'
  /// cross-check rejected is not the update's quote, so it can fire nothing.
  func tick(_ update: PriceUpdate) -> AlertViewState? {
    let alerts = engine.evaluate(update)
    guard let state = presenter.presentAlerts(alerts) else { return nil }
    for item in state.items {
      if let command {
        runner.start(["/bin/sh", "-c", command], adding: item.environment, label: "--on-alert")
      }
      if let notifier {
        runner.start(
          notifier.arguments(title: item.title, body: item.body), adding: [:], label: "--notify")
      }
    }
    return state
  }

  /// Waits up to `grace` for the commands still running, then ends them: the way out leaves
  /// nothing behind.
  func shutdown(grace: Duration) async {
    await runner.finish(within: grace)
  }
}
