import BTCPriceFeature
import BTCPriceNIO
import NIOCore
import ServiceLifecycle

/// The one poller of `btc-price serve`, as a service: runs the tick loop (the same
/// ``PriceTickLoop`` as the terminal's) with the broadcaster as its view, and a heartbeat for the
/// streams; on graceful shutdown it stops both and ends every stream, so the HTTP server can
/// close its connections.
public struct PriceTickService: Service {
  public static let heartbeatInterval = Duration.seconds(15)

  private let loop: PriceTickLoop
  private let eventLoop: (any EventLoop)?
  private let view: BroadcastView
  private let clock: any Clock<Duration>
  private let heartbeatInterval: Duration

  /// - Parameters:
  ///   - eventLoop: where the ticks run (the tool's one thread, see `EventLoopExecutor`); nil
  ///     runs them on the caller's executor.
  ///   - clock: times the heartbeat; tests pass a test clock.
  ///   - warn: the loop's notices (why no price comes, a disagreement), for stderr.
  public init(
    loop: PriceTickLoop, on eventLoop: (any EventLoop)? = nil, broadcaster: PriceBroadcaster,
    metrics: ServerMetrics?, clock: any Clock<Duration>,
    heartbeatInterval: Duration = Self.heartbeatInterval,
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.loop = loop
    self.eventLoop = eventLoop
    self.view = BroadcastView(broadcaster: broadcaster, metrics: metrics, warn: warn)
    self.clock = clock
    self.heartbeatInterval = heartbeatInterval
  }

  public func run() async throws {
    let (loop, eventLoop, view, clock, interval) = (
      self.loop, self.eventLoop, self.view, self.clock, heartbeatInterval
    )
    defer { view.broadcaster.finish() }
    try? await cancelWhenGracefulShutdown {
      try await withThrowingDiscardingTaskGroup { group in
        group.addTask {
          guard let eventLoop else {
            _ = try await loop.run(view: view)
            return
          }
          _ = try await eventLoop.runTask { try await loop.run(view: view) }
        }
        group.addTask {
          while true {
            try await clock.sleep(for: interval)
            view.broadcaster.heartbeat()
          }
        }
      }
    }
  }

  /// Each tick counted and published to every viewer; the notices on stderr.
  private struct BroadcastView: PriceTickView {
    let broadcaster: PriceBroadcaster
    let metrics: ServerMetrics?
    let warn: @Sendable (String) -> Void

    func notice(_ line: String) {
      warn(line)
    }

    func show(_ tick: PriceTick) {
      metrics?.recordTick(tick.state)
      broadcaster.publish(tick.state, chart: tick.chart)
    }
  }
}
