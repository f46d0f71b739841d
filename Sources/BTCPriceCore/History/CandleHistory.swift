import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The price history use case every view shares: each range's candles fetched at start and
/// again at the range's own pace (never per tick), kept on disk beside the last price, and
/// extended by the live price in between.
///
/// - **Start.** A range's history is read from the store the first time it is asked for. A store
///   that cannot be read is "no history" plus one warning. A history younger than the range's
///   ``ChartRange/refreshInterval`` is not fetched again: a status bar that runs `--once` every
///   few seconds must not fetch the day every few seconds.
/// - **Refresh.** Due ``ChartRange/refreshInterval`` after the last fetch, and
///   ``PriceDefaults/historyRetryAfterFailure`` after a failed one. A fetched series replaces the
///   one held and goes to the store; a failed fetch keeps the one held, which shows its age.
/// - **Live.** ``record(_:)`` extends every held series with a tick's price: the last candle
///   takes it in, and a new one opens when its period has passed. What the store keeps is only
///   what an exchange said.
///
/// A class with a lock, like ``PriceCache``: the lock guards only the bookkeeping; fetches, store
/// reads and writes, and warnings happen outside it. A fetched series is written where the
/// injected ``StoreWriter`` runs writes: never on the command-line tool's event loop.
public final class CandleHistory: Sendable {
  /// What one call to ``refreshIfDue(_:)`` did.
  public enum Refresh: Equatable, Sendable {
    /// Nothing to do before this time (or a fetch of the range is already under way).
    case notDue(until: Date)
    case refreshed(CandleSeries)
    /// Every source failed; the history held stays as it was.
    case failed(PriceFetchFailure)
  }

  /// Fetches a range's candles in the history's currency: the exchanges' chain. Throws
  /// ``PriceFetchFailure`` when none delivered, `CancellationError` when cancelled.
  public typealias Loader = @Sendable (ChartRange) async throws -> CandleSeries

  private struct State {
    var series: [ChartRange: CandleSeries] = [:]
    /// Ranges whose store has been read (whatever it held).
    var restored: Set<ChartRange> = []
    /// When the last fetch of a range failed, since its last success.
    var failedAt: [ChartRange: Date] = [:]
    var inFlight: Set<ChartRange> = []
    var saveIsFailing = false
    /// Whether ``run(_:)`` has read and, when due, fetched each of its ranges once.
    var looked = false
    var lookWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }

  public let currency: Currency
  private let store: (any CandleStore)?
  private let load: Loader
  private let clock: ElapsedClock
  /// The wall clock the history is dated on.
  public let now: @Sendable () -> Date
  private let retryAfterFailure: Duration
  private let warn: @Sendable (String) -> Void
  private let writer: StoreWriter
  private let state = Locked(State())

  /// - Parameters:
  ///   - store: where each range's history is kept; nil keeps it for this run only.
  ///   - clock: what ``run(_:)`` sleeps on.
  ///   - now: the wall clock, which the stored histories' ages are counted on.
  ///   - writer: where the store's writes run (``StoreWriter/here``: at once).
  ///   - warn: a store that cannot be read (once per range) or written (once per run of
  ///     failures), in words.
  public init(
    currency: Currency, store: (any CandleStore)?, load: @escaping Loader,
    clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
    retryAfterFailure: Duration = PriceDefaults.historyRetryAfterFailure,
    writer: StoreWriter = .here, warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.currency = currency
    self.store = store
    self.load = load
    self.clock = ElapsedClock(clock)
    self.now = now
    self.retryAfterFailure = retryAfterFailure
    self.writer = writer
    self.warn = warn
  }

  /// The history of `range` as known now (from the store, a fetch, and the live prices since),
  /// or nil when there is none.
  public func series(_ range: ChartRange) -> CandleSeries? {
    restore(range)
    return state.value.series[range]
  }

  /// The history of `range` held now, without reading the store: for a tick, which must never
  /// wait on a disk (``run(_:)`` reads the store first, off the tick's thread).
  public func held(_ range: ChartRange) -> CandleSeries? {
    state.value.series[range]
  }

  /// Waits until ``run(_:)`` has read each of its ranges and fetched the due ones once, or
  /// `limit` has passed on the clock: a one-tick run (`--once`) shows the change it can.
  public func waitForFirstLook(atMost limit: Duration) async {
    let clock = self.clock
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.firstLook() }
      group.addTask {
        try? await clock.sleep(until: clock.now.advanced(by: limit))
      }
      await group.next()
      group.cancelAll()
    }
  }

  private func firstLook() async {
    let id = state.withValue { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let now = state.withValue { state in
          guard !state.looked, !Task.isCancelled else { return true }
          state.lookWaiters[id] = waiter
          return false
        }
        if now { waiter.resume() }
      }
    } onCancel: {
      state.withValue { $0.lookWaiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// Marks the first look done and lets every waiter go.
  private func finishFirstLook() {
    let waiters = state.withValue { state in
      state.looked = true
      defer { state.lookWaiters = [:] }
      return Array(state.lookWaiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// When `range` is next due to be fetched: now when it never was (or its history dates from
  /// the future: a clock set back says nothing about its age).
  public func nextRefresh(_ range: ChartRange) -> Date {
    restore(range)
    let now = now()
    return state.withValue { state in
      if let failedAt = state.failedAt[range] {
        return failedAt.addingTimeInterval(retryAfterFailure.timeInterval)
      }
      guard let fetchedAt = state.series[range]?.fetchedAt, fetchedAt <= now else { return now }
      return fetchedAt.addingTimeInterval(range.refreshInterval.timeInterval)
    }
  }

  /// Fetches `range` if it is due, keeps and stores what came.
  ///
  /// - Throws: only `CancellationError`.
  public func refreshIfDue(_ range: ChartRange) async throws -> Refresh {
    let due = nextRefresh(range)
    let claimed = state.withValue { state in
      guard due <= now(), !state.inFlight.contains(range) else { return false }
      state.inFlight.insert(range)
      return true
    }
    guard claimed else { return .notDue(until: due) }
    defer { _ = state.withValue { $0.inFlight.remove(range) } }
    let fetched: CandleSeries
    do {
      fetched = try await load(range)
    } catch let failure as PriceFetchFailure {
      try Task.checkCancellation()
      state.withValue { $0.failedAt[range] = now() }
      return .failed(failure)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      try Task.checkCancellation()
      state.withValue { $0.failedAt[range] = now() }
      return .failed(PriceFetchFailure(failures: []))
    }
    try Task.checkCancellation()
    state.withValue { state in
      state.series[range] = fetched
      state.failedAt[range] = nil
    }
    save(fetched, for: range)
    return .refreshed(fetched)
  }

  /// Extends every history held in the quote's currency with its price: between two fetches the
  /// chart and the 24-hour change follow the live price.
  public func record(_ quote: PriceQuote) {
    guard quote.currency == currency.code else { return }
    state.withValue { state in
      for (range, series) in state.series {
        state.series[range] = series.extended(
          with: quote.value, at: quote.timestamp, keeping: range.duration + series.period * 2)
      }
    }
  }

  /// Keeps `ranges` fetched at their pace until the task is cancelled: each is fetched when due,
  /// then the loop sleeps on the clock until the next one is (at least a second, so a clock set
  /// back never makes it spin).
  public func run(_ ranges: [ChartRange]) async {
    defer { finishFirstLook() }
    while !Task.isCancelled {
      for range in ranges {
        guard (try? await refreshIfDue(range)) != nil else { return }
      }
      finishFirstLook()
      let next = ranges.map(nextRefresh).min() ?? now().addingTimeInterval(3_600)
      let wait = max(next.timeIntervalSince(now()), 1)
      do {
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(Int64(wait * 1_000))))
      } catch {
        return
      }
    }
  }

  /// Reads `range`'s history from the store once: what it holds, in this currency, unless a
  /// fetch already brought newer.
  private func restore(_ range: ChartRange) {
    guard let store, !state.value.restored.contains(range) else { return }
    let stored: CandleSeries?
    do {
      stored = try store.load(range)
    } catch {
      stored = nil
      let first = state.withValue { $0.restored.insert(range).inserted }
      if first { warn("\(error); no \(range.rawValue) price history is known") }
      return
    }
    state.withValue { state in
      guard state.restored.insert(range).inserted else { return }
      if let stored, stored.currency == currency, state.series[range] == nil {
        state.series[range] = stored
      }
    }
  }

  /// Writes where the writer runs writes, outside the lock; warns once per run of failed writes.
  private func save(_ series: CandleSeries, for range: ChartRange) {
    guard let store else { return }
    writer.write(for: self, file: range.rawValue) { self.write(series, for: range, to: store) }
  }

  private func write(_ series: CandleSeries, for range: ChartRange, to store: any CandleStore) {
    let failure: (any Error)?
    do {
      try store.save(series, for: range)
      failure = nil
    } catch {
      failure = error
    }
    let warning = state.withValue { state -> String? in
      defer { state.saveIsFailing = failure != nil }
      guard let failure, !state.saveIsFailing else { return nil }
      return "\(failure) (will keep running without saving the price history)"
    }
    if let warning { warn(warning) }
  }
}
