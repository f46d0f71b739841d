import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The last known quote on disk, written when it matters rather than on every tick.
///
/// Writing the cache with its `fsync` on every tick cost more CPU than the rest of a tick and
/// flushed the disk once a second, all day. The rules instead:
/// - the first new price of a run is written at once;
/// - after that, at most one write every ``minimumInterval`` (10 s) while the price changes, so a
///   `kill -9` loses at most that long; a price that has not changed is not written at all;
/// - ``flush()`` writes whatever the store does not hold yet, on every way out (the count done,
///   Ctrl-C, SIGTERM, a closed pipe, the app going to the background).
///
/// The quote written is always the newest, with its own timestamp: the time shown with a cached
/// value is when that value was received. Writes are the store's (atomic); a failed write is
/// reported once per run of failures and retried no sooner than the next interval.
///
/// The writes of ``record(_:)`` run where the injected ``StoreWriter`` runs them: the
/// command-line tool's event loop hands them to a thread of their own and never waits for the
/// disk. ``flush()`` writes on the caller's thread.
///
/// A class with a lock rather than an actor, so that a signal handler can flush it synchronously
/// while the tick's own thread is busy. The lock guards only the bookkeeping: the store's write
/// (with its `fsync`) and the warning run after it is released, and one write at a time claims
/// the store, so the way out never waits on a lock that a slow write or a blocked stderr holds.
/// A `flush()` that finds a write in flight returns at once and leaves the newest quote to that
/// write, which writes it when it lands.
public final class PriceCache: Sendable {
  private struct State {
    /// What the store holds, as far as this run knows.
    var stored: PriceQuote?
    /// The newest quote this run has seen.
    var newest: PriceQuote?
    /// The newest quote whose price the store does not hold yet.
    var pending: PriceQuote?
    var lastWrite: ElapsedClock.Instant?
    var writeIsFailing = false
    /// A write is in flight, outside the lock; no second one starts until it has landed.
    var writing = false
    /// A flush came while a write was in flight: that write, once landed, writes the newest.
    var flushOwed = false
  }

  public let minimumInterval: Duration
  private let store: any PriceStore
  private let clock: ElapsedClock
  private let warn: @Sendable (PriceFeedWarning) -> Void
  private let writer: StoreWriter
  private let state = Locked(State())

  /// - Parameter writer: where the writes a tick makes due run (``StoreWriter/here``: at once).
  public init(
    store: any PriceStore, clock: any Clock<Duration>,
    minimumInterval: Duration = PriceDefaults.cacheWriteInterval,
    writer: StoreWriter = .here,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) {
    self.store = store
    self.clock = ElapsedClock(clock)
    self.minimumInterval = minimumInterval
    self.writer = writer
    self.warn = warn
  }

  /// The stored quote, or nil; throws when the store cannot be read.
  public func load() throws -> PriceQuote? {
    let quote = try store.load()
    state.withValue { $0.stored = quote }
    return quote
  }

  /// The stored quote if it was received at most `maxAge` before `now` (and not in the future:
  /// a clock set back says nothing about its age); nil otherwise, or when nothing can be read.
  public func storedQuote(notOlderThan maxAge: Duration, at now: Date) -> PriceQuote? {
    guard let quote = try? load() else { return nil }
    let age = now.timeIntervalSince(quote.timestamp)
    return age >= -1 && age <= maxAge.timeInterval ? quote : nil
  }

  /// Called once per tick with the fresh quote, or nil when the tick failed; writes what is due.
  public func record(_ fresh: PriceQuote?) {
    let due = state.withValue { state -> PriceQuote? in
      if let fresh {
        state.newest = fresh
        state.pending = fresh.value == state.stored?.value ? nil : fresh
      }
      let now = clock.now
      guard let pending = state.pending,
        state.lastWrite.map({ $0.duration(to: now) >= minimumInterval }) ?? true
      else { return nil }
      return Self.claimWrite(of: pending, at: now, in: &state)
    }
    if let due { writer.write(for: self) { self.write(due) } }
  }

  /// Writes the newest quote if the store does not hold it yet, on the caller's thread. Safe to
  /// call from any thread, and more than once; returns at once while another write is in flight,
  /// which then writes the newest quote when it lands.
  public func flush() {
    let due = state.withValue { state -> PriceQuote? in
      guard let newest = state.newest, newest != state.stored else { return nil }
      guard !state.writing else {
        state.flushOwed = true
        return nil
      }
      return Self.claimWrite(of: newest, at: clock.now, in: &state)
    }
    if let due { write(due) }
  }

  /// Takes the store for one write of `quote`, unless a write is already in flight.
  private static func claimWrite(
    of quote: PriceQuote, at now: ElapsedClock.Instant, in state: inout State
  ) -> PriceQuote? {
    guard !state.writing else { return nil }
    state.writing = true
    state.lastWrite = now
    return quote
  }

  /// Writes outside the lock, then records what happened under it, then warns outside it again;
  /// then writes the newest quote if a flush asked for it meanwhile.
  private func write(_ quote: PriceQuote) {
    var quote = quote
    while true {
      let failure: (any Error)?
      do {
        try store.save(quote)
        failure = nil
      } catch {
        failure = error
      }
      let (warning, next) = state.withValue { state -> (PriceFeedWarning?, PriceQuote?) in
        state.writing = false
        let owed = state.flushOwed
        state.flushOwed = false
        guard let failure else {
          state.stored = quote
          if state.pending?.value == quote.value { state.pending = nil }
          state.writeIsFailing = false
          guard owed, let newest = state.newest, newest != state.stored else { return (nil, nil) }
          return (nil, Self.claimWrite(of: newest, at: clock.now, in: &state))
        }
        defer { state.writeIsFailing = true }
        return (state.writeIsFailing ? nil : .cacheNotSaved(String(describing: failure)), nil)
      }
      if let warning { warn(warning) }
      guard let next else { return }
      quote = next
    }
  }
}
