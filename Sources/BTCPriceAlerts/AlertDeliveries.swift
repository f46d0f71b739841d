import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every way an alert reaches the user besides the views, as the one ``AlertDelivery`` a front
/// end plugs into ``PriceTickLoop``: `--on-alert`'s command (by `/bin/sh -c`, the alert in
/// `BTC_PRICE_ALERT_*` variables), `--notify`'s desktop notification, both started by
/// ``AlertCommandRunner``, and `serve --alert-webhook`'s POST from a bounded queue with jittered
/// retries (``AlertWebhookQueue``). Nothing here makes the tick wait.
public struct AlertDeliveries: AlertDelivery {
  private let command: String?
  private let notifier: DesktopNotifier?
  private let launcher: any AlertCommandLauncher
  private let webhook: AlertWebhook?
  private let queue: AlertWebhookQueue<AlertViewState.Item>?

  /// - Parameters:
  ///   - command: `--on-alert`'s command.
  ///   - notifier: `--notify`'s program.
  ///   - webhook: `--alert-webhook`, sent through `client`.
  ///   - warn: a command that cannot start, fails or times out; a receiver that stops taking
  ///     alerts, or takes them again.
  ///   - onWebhookOutcome: each delivery's ``AlertWebhook/outcome(of:)``, for the metrics.
  public init(
    command: String? = nil, notifier: DesktopNotifier? = nil, webhook: AlertWebhook? = nil,
    client: (any BTCHTTPClient)? = nil, clock: any Clock<Duration> = ContinuousClock(),
    warn: @escaping @Sendable (String) -> Void,
    onWebhookOutcome: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.init(
      command: command, notifier: notifier, launcher: AlertCommandRunner(warn: warn),
      webhook: webhook, client: client, clock: clock, warn: warn,
      onWebhookOutcome: onWebhookOutcome)
  }

  init(
    command: String?, notifier: DesktopNotifier?, launcher: any AlertCommandLauncher,
    webhook: AlertWebhook?, client: (any BTCHTTPClient)?, clock: any Clock<Duration>,
    jitter: @escaping @Sendable () -> Double = ReconnectBackoff.randomJitter,
    warn: @escaping @Sendable (String) -> Void,
    onWebhookOutcome: @escaping @Sendable (String) -> Void
  ) {
    self.command = command
    self.notifier = notifier
    self.launcher = launcher
    self.webhook = webhook
    self.queue = webhook.flatMap { webhook in
      client.map { client in
        AlertWebhookQueue<AlertViewState.Item>(
          clock: clock, jitter: jitter,
          send: { item in try await webhook.send(item, through: client) },
          onEvent: { event in
            if let outcome = AlertWebhook.outcome(of: event) { onWebhookOutcome(outcome) }
            if let warning = webhook.warning(for: event) { warn(warning) }
          })
      }
    }
  }

  /// The terminal's deliveries: `--on-alert`'s command and, with `notify`, the desktop's
  /// notifier found in `PATH` (or a warning saying what to install, and no notifications).
  public static func terminal(
    command: String?, notify: Bool, environment: [String: String],
    warn: @escaping @Sendable (String) -> Void
  ) -> AlertDeliveries {
    var notifier: DesktopNotifier?
    if notify {
      switch DesktopNotifier.find(environment: environment) {
      case .success(let found): notifier = found
      case .failure(let missing): warn(missing.description)
      }
    }
    return AlertDeliveries(command: command, notifier: notifier, warn: warn)
  }

  /// Starts each alert's command and notification, and queues it for the webhook; returns at
  /// once.
  public func deliver(_ alerts: AlertViewState) {
    for item in alerts.items {
      if let command {
        launcher.start(["/bin/sh", "-c", command], adding: item.environment, label: "--on-alert")
      }
      if let notifier {
        launcher.start(
          notifier.arguments(title: item.title, body: item.body), adding: [:], label: "--notify")
      }
      queue?.enqueue(item)
    }
  }

  /// Delivers to the webhook until cancelled; returns at once without one.
  public func run() async {
    await queue?.run()
  }

  /// For the way out: waits up to `grace` for the commands still running, then ends them, so
  /// nothing is left behind.
  public func finish(within grace: Duration) async {
    await launcher.finish(within: grace)
  }
}

/// What starts alert commands: ``AlertCommandRunner``, or a test's spy.
protocol AlertCommandLauncher: Sendable {
  func start(_ arguments: [String], adding environment: [String: String], label: String)
  func finish(within grace: Duration) async
}

extension AlertCommandRunner: AlertCommandLauncher {}
