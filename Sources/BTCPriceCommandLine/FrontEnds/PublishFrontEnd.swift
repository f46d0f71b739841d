import BTCPriceCore
import BTCPriceFeature
import BTCPricePublish
import BTCPriceServer
import BTCPriceTerminal

/// `btc-price publish`'s front end: one tick path (``PriceTickLoop``) whose view hands each tick
/// to the edges (``EdgePublisher``, which never makes the tick wait), the signals that end it.
/// Every decision of publishing is `EdgePublisher`'s, `EdgeFailover`'s and `StandbyRule`'s.
public struct PublishFrontEnd: Sendable {
  public enum Outcome: Equatable, Sendable {
    /// The ticks ended on their own.
    case stopped
    /// Ended by a signal.
    case interrupted(signal: Int32)
  }

  private let options: ResolvedOptions
  private let targets: [PublishTarget]
  private let standby: Bool
  private let output: CommandLineOutput

  /// - Parameter standby: publish only while no other publisher does (``StandbyRule``).
  public init(
    options: ResolvedOptions, targets: [PublishTarget], standby: Bool, output: CommandLineOutput
  ) {
    self.options = options
    self.targets = targets
    self.standby = standby
    self.output = output
  }

  /// Publishes every tick until a signal ends the run.
  public func run() async -> Outcome {
    let (output, options, verbose) = (self.output, self.options, self.options.verbose)
    let runtime = NIOPriceRuntime(options, warn: output.warn, log: output.writeDiagnostic)
    let presenter = NIOPriceRuntime.presenter(options)
    let broadcaster = PriceBroadcaster(
      initial: presenter.presentRestored(await runtime.restore()),
      page: PricePagePresenter(currency: options.configuration.currency, interval: options.interval)
    )
    if verbose {
      output.writeDiagnostic(
        VerboseLine.format(
          .info,
          "publish\(standby ? " (standby)" : ""): to "
            + targets.map(\.redacted).joined(separator: ", then ")))
    }
    let publisher = EdgePublisher(
      targets: targets, client: runtime.client, clock: runtime.clock,
      policy: .standard(interval: options.interval),
      standby: standby ? StandbyRule(interval: options.interval) : nil,
      onEvent: { event in
        if let line = event.warning { output.warn(line) }
        if verbose, let line = event.detail {
          output.writeDiagnostic(VerboseLine.format(.info, line))
        }
      })
    let delivering = Task { await publisher.run() }
    let ticking = runtime.start(
      runtime.tickLoop(presenter: presenter, alerts: nil, deliveries: []), count: nil,
      view: EdgeView(broadcaster: broadcaster, publisher: publisher, warn: output.warn))
    // The hard way out waits for nothing a stalled disk or stderr holds.
    let signals = SignalTrap(
      beforeHardExit: {
        runtime.saveBeforeHardExit()
        output.waitUntilWritten(atMost: .milliseconds(50))
      }, terminate: { _ in ticking.cancel() })
    _ = await ticking.result
    // The tick already handed over still goes out (a signal's grace bounds it).
    publisher.finish()
    await delivering.value
    await runtime.shutdown()
    // The warnings queued for stderr go out before the run ends.
    await output.finish(afterSignal: signals.received)
    return signals.received.map { .interrupted(signal: $0) } ?? .stopped
  }

  /// Each tick: serve's encoding (the broadcaster's event, page texts and sparkline), then the
  /// edges' mailbox.
  private struct EdgeView: PriceTickView {
    let broadcaster: PriceBroadcaster
    let publisher: EdgePublisher
    let warn: @Sendable (String) -> Void

    func notice(_ line: String) {
      warn(line)
    }

    func show(_ tick: PriceTick) async throws {
      let event = broadcaster.publish(tick.state, chart: tick.chart)
      publisher.publish(EdgeMessage.messages(for: event), tick: event.id)
    }
  }
}
