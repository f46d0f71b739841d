import BTCPriceFeature
import ServiceLifecycle

/// The one poller of `btc-price serve`, as a service: runs the ticks (the same ticker, feed and
/// presenter as the command line, composed by the caller) and a heartbeat for the streams; on
/// graceful shutdown it stops both and ends every stream, so the HTTP server can close its
/// connections.
public struct PriceTickService: Service {
  public static let heartbeatInterval = Duration.seconds(15)

  private let broadcaster: PriceBroadcaster
  private let metrics: ServerMetrics?
  private let clock: any Clock<Duration>
  private let heartbeatInterval: Duration
  private let ticks:
    @Sendable (_ publish: @escaping @Sendable (PriceViewState) -> Void) async throws -> Void

  /// - Parameters:
  ///   - clock: times the heartbeat; tests pass a test clock.
  ///   - ticks: runs the ticker until cancelled, calling `publish` with each tick's state.
  public init(
    broadcaster: PriceBroadcaster, metrics: ServerMetrics?, clock: any Clock<Duration>,
    heartbeatInterval: Duration = Self.heartbeatInterval,
    ticks:
      @escaping @Sendable (_ publish: @escaping @Sendable (PriceViewState) -> Void) async throws
      -> Void
  ) {
    self.broadcaster = broadcaster
    self.metrics = metrics
    self.clock = clock
    self.heartbeatInterval = heartbeatInterval
    self.ticks = ticks
  }

  public func run() async throws {
    let (broadcaster, metrics, clock, interval, ticks) = (
      self.broadcaster, self.metrics, self.clock, heartbeatInterval, self.ticks
    )
    defer { broadcaster.finish() }
    try? await cancelWhenGracefulShutdown {
      try await withThrowingDiscardingTaskGroup { group in
        group.addTask {
          try await ticks { state in
            metrics?.recordTick(state)
            broadcaster.publish(state)
          }
        }
        group.addTask {
          while true {
            try await clock.sleep(for: interval)
            broadcaster.heartbeat()
          }
        }
      }
    }
  }
}
