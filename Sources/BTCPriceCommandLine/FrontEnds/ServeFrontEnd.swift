import BTCPriceAlerts
import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTerminal
import Logging
import ServiceLifecycle

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price serve`'s front end: one tick path (``PriceTickLoop``) with the broadcaster as its
/// view and the webhook as its delivery, the HTTP server every viewer reads, the signals that end
/// them, and how it ended.
public struct ServeFrontEnd: Sendable {
  public enum Outcome: Equatable, Sendable {
    /// Every service ended on its own.
    case stopped
    /// Shut down by a signal.
    case interrupted(signal: Int32)
    /// The server could not run: the message for stderr.
    case failed(String)
  }

  /// Where the server listens.
  public struct Listener: Sendable {
    public let host: String
    public let port: Int
    /// Open connections one client address may have.
    public let connectionsPerAddress: Int

    public init(host: String, port: Int, connectionsPerAddress: Int) {
      self.host = host
      self.port = port
      self.connectionsPerAddress = connectionsPerAddress
    }

    /// What stdout says once the server listens (scripts and tests read the port a `--port 0`
    /// run got there): `Serving the Bitcoin price on http://[::1]:8080/ (Ctrl-C to stop)`.
    public func servingLine(port: Int) -> String {
      let shown = host.contains(":") ? "[\(host)]" : host
      return "Serving the Bitcoin price on http://\(shown):\(port)/ (Ctrl-C to stop)\n"
    }
  }

  private let options: ResolvedOptions
  private let webhookFormat: AlertWebhook.BodyFormat
  private let listener: Listener
  private let output: CommandLineOutput

  public init(
    options: ResolvedOptions, webhookFormat: AlertWebhook.BodyFormat, listener: Listener,
    output: CommandLineOutput
  ) {
    self.options = options
    self.webhookFormat = webhookFormat
    self.listener = listener
    self.output = output
  }

  /// Serves until a signal ends it, or the server cannot run.
  public func run() async -> Outcome {
    let output = self.output
    let metrics = ServerMetrics(
      sources: options.configuration.sources.map(\.source),
      currency: options.configuration.currency)
    let runtime = NIOPriceRuntime(
      options, warn: output.warn, log: output.writeDiagnostic, onEvent: metrics.record)
    let presenter = NIOPriceRuntime.presenter(options)
    let currency = options.configuration.currency
    let broadcaster = PriceBroadcaster(
      initial: presenter.presentRestored(await runtime.restore()),
      page: PricePagePresenter(currency: currency, interval: options.interval))
    let server = PriceServer(
      broadcaster: broadcaster, metrics: metrics, currency: currency,
      alertRules: presenter.presentRules(options.alerts))
    // The rules' state is kept under `serve:` in the state file, apart from the terminal runs'.
    let deliveries = AlertDeliveries(
      webhook: options.alertWebhook.map { AlertWebhook(url: $0, format: webhookFormat) },
      client: runtime.client, clock: runtime.clock, warn: output.warn,
      onWebhookOutcome: metrics.recordAlertWebhook)
    let delivering = Task { await deliveries.run() }
    let ticking = PriceTickService(
      loop: runtime.tickLoop(
        presenter: presenter, alerts: runtime.alertEngine(scope: "serve:"),
        deliveries: [deliveries]),
      on: runtime.loop, broadcaster: broadcaster, metrics: metrics, clock: runtime.clock,
      warn: output.warn)

    let logger = Self.logger(verbose: options.verbose, output: output)
    let listener = self.listener
    let application = server.makeApplication(
      configuration: .init(
        host: listener.host, port: listener.port,
        connectionsPerAddress: listener.connectionsPerAddress,
        maximumConnections: OpenFileLimit.maximumConnections(forOpenFiles: OpenFileLimit.raise())),
      logger: logger,
      onServerRunning: { channel in
        try? output.write(listener.servingLine(port: channel.localAddress?.port ?? 0))
      })

    // Shut down in reverse order: the ticker first, which ends every stream, then the server,
    // which then has no request in progress and closes its connections at once.
    var configuration = ServiceGroupConfiguration(
      services: [.init(service: application), .init(service: ticking)], logger: logger)
    configuration.maximumGracefulShutdownDuration = ServeShutdown.gracefulShutdown
    configuration.maximumCancellationDuration = ServeShutdown.cancellation
    let group = ServiceGroup(configuration: configuration)
    let signals = SignalTrap(
      grace: ServeShutdown.signalGrace,
      beforeHardExit: {
        runtime.saveBeforeHardExit()
        output.waitUntilWritten(atMost: .milliseconds(50))
      },
      terminate: { _ in Task { await group.triggerGracefulShutdown() } })
    var failure: (any Error)?
    do {
      try await group.run()
    } catch {
      failure = error
    }
    delivering.cancel()
    await runtime.shutdown()
    await output.finish(afterSignal: signals.received)
    if let signal = signals.received { return .interrupted(signal: signal) }
    guard let failure else { return .stopped }
    return .failed("cannot serve on \(listener.host):\(listener.port): \(failure)")
  }

  /// Server logs on stderr, through its writer (``QueuedLogHandler``): warnings and worse, or
  /// everything with `--verbose`.
  static func logger(verbose: Bool, output: CommandLineOutput) -> Logger {
    var logger = Logger(label: "btc-price") { label in
      QueuedLogHandler(label: label, write: output.writeDiagnostic)
    }
    logger.logLevel = verbose ? .debug : .warning
    return logger
  }
}
