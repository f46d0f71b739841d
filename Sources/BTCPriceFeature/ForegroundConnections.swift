/// What the app keeps open beside its ticks while it is in the foreground, and only then: the
/// price streams' connections. ``PriceViewModel`` opens them when ticking starts (launch, return
/// from the background) and cancels them, which closes them, when ticking stops.
public struct ForegroundConnections: Sendable {
  /// Keeps the connections open until the calling task is cancelled.
  public let run: @Sendable () async -> Void
  /// Returns once the connections can give a tick its price, or after a bound of its own, so the
  /// first tick after opening need not ask REST for the price a stream is about to give.
  public let ready: @Sendable () async -> Void

  public init(
    run: @escaping @Sendable () async -> Void, ready: @escaping @Sendable () async -> Void
  ) {
    self.run = run
    self.ready = ready
  }

  /// No connections: every tick polls (the widget, a pipeline without streams).
  public static let none = ForegroundConnections(run: {}, ready: {})
}
