/// What a tick loop keeps open beside its ticks: the price streams' connections. ``PriceTickLoop``
/// opens them when it starts and closes them (cancels ``run``) when it ends, so they live exactly
/// as long as the ticks: for the whole run in the terminal and `serve`, in the foreground only in
/// the app (``PriceViewModel`` runs the loop only there).
public struct PriceConnections: Sendable {
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

  /// `self` and `other` together: both run until cancelled, and ready once both are.
  public func with(_ other: PriceConnections) -> PriceConnections {
    let (mine, theirs) = (self, other)
    return PriceConnections(
      run: {
        async let first: Void = mine.run()
        async let second: Void = theirs.run()
        _ = await (first, second)
      },
      ready: {
        async let first: Void = mine.ready()
        async let second: Void = theirs.ready()
        _ = await (first, second)
      })
  }

  /// No connections: every tick polls (`--once`, the widget, a pipeline without streams).
  public static let none = PriceConnections(run: {}, ready: {})
}
