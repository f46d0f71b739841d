import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The newest price each stream delivered, with when it arrived, and when each stream last said
/// anything at all. The streams write it as messages arrive; a tick reads it without waiting.
///
/// Times are read from the injected clock (for freshness) and the injected `now` (the quote's
/// wall-clock stamp: when the trade reached us).
public final class StreamPriceBoard: Sendable {
  /// What the board knows about one stream.
  public struct Entry: Equatable, Sendable {
    /// The newest trade, stamped with when it arrived.
    public var quote: PriceQuote?
    /// When the stream last delivered any message (trade, heartbeat, acknowledgement).
    var messageAt: Duration?
    /// Why the stream last failed; cleared by its next message.
    public var lastError: PriceStreamError?
  }

  private let clock: ElapsedClock
  private let now: @Sendable () -> Date
  private let currency: String
  private let entries = Locked<[String: Entry]>([:])

  public init(
    clock: any Clock<Duration>, currency: String = "USD",
    now: @escaping @Sendable () -> Date
  ) {
    self.clock = ElapsedClock(clock)
    self.now = now
    self.currency = currency
  }

  /// Records one message of `source`'s stream, which reached the machine `receivedAgo` (a
  /// stream read on the tick reads a message up to a tick after it came): its times are when it
  /// came.
  public func record(
    _ message: PriceStreamMessage, from source: PriceSource, receivedAgo: Duration = .zero
  ) {
    let at = clock.now.offset - receivedAgo
    let stamp = now().addingTimeInterval(-receivedAgo.timeInterval)
    entries.withValue { entries in
      var entry = entries[source.id] ?? Entry()
      entry.messageAt = at
      entry.lastError = nil
      if case .trade(let value) = message {
        entry.quote = PriceQuote(
          value: value, currency: currency, timestamp: stamp, source: source)
      }
      entries[source.id] = entry
    }
  }

  /// Records why `source`'s stream failed. Its last price stays, but it ages out like any other.
  public func record(_ error: PriceStreamError, from source: PriceSource) {
    entries.withValue { entries in
      var entry = entries[source.id] ?? Entry()
      entry.lastError = error
      entries[source.id] = entry
    }
  }

  /// Forgets that `source` ever spoke: its connection ended, so its last message no longer proves
  /// it alive.
  public func markDown(_ source: PriceSource, because error: PriceStreamError) {
    entries.withValue { entries in
      var entry = entries[source.id] ?? Entry()
      entry.messageAt = nil
      entry.lastError = error
      entries[source.id] = entry
    }
  }

  /// Forgets that `source` ever spoke because we closed its stream on purpose (the app going to
  /// the background): down, like ``markDown(_:because:)``, but with no failure, so a wait for the
  /// streams' first prices after they reopen does not end on an error from before.
  public func markClosed(_ source: PriceSource) {
    entries.withValue { entries in
      var entry = entries[source.id] ?? Entry()
      entry.messageAt = nil
      entry.lastError = nil
      entries[source.id] = entry
    }
  }

  /// What the board knows about `source`.
  public func entry(for source: PriceSource) -> Entry {
    entries.value[source.id] ?? Entry()
  }

  /// How long ago `source` last said anything; nil if it never did since it last went down.
  public func silence(of source: PriceSource) -> Duration? {
    guard let at = entry(for: source).messageAt else { return nil }
    return clock.now.offset - at
  }

  /// The newest price of `source` if its stream is alive: it delivered a message within `bound`
  /// and has delivered a trade since it connected. Nil otherwise.
  public func freshQuote(of source: PriceSource, within bound: Duration) -> PriceQuote? {
    let entry = entry(for: source)
    guard let quote = entry.quote, let messageAt = entry.messageAt else { return nil }
    return clock.now.offset - messageAt <= bound ? quote : nil
  }
}
