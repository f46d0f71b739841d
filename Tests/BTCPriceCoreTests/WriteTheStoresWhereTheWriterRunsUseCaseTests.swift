import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// The cache, the limits, the alert state and the price history hand their writes (with their `fsync`) to a
/// ``StoreWriter``: the command-line tool's event loop, which also answers the streams' pings,
/// never waits for a disk.
@Suite("Write the stores where the writer runs", .hangLimit(.seconds(30)))
struct WriteTheStoresWhereTheWriterRunsUseCaseTests {
  @Test func aCacheWriteATickMakesDue_runsWhereTheWriterRunsIt() {
    let store = PriceStoreSpy()
    let writer = HeldWriter()
    let sut = PriceCache(store: store, clock: SteppedTestClock(), writer: writer.writer)

    sut.record(quote("68901.23"))
    #expect(store.savedQuotes.isEmpty, "nothing written on the tick's thread")
    writer.runAll()

    #expect(store.savedQuotes == [quote("68901.23")])
  }

  @Test func aFlushWhileAWriteIsInFlight_isWrittenByThatWriteWhenItLands() {
    let store = PriceStoreSpy()
    let writer = HeldWriter()
    let clock = SteppedTestClock()
    let sut = PriceCache(store: store, clock: clock, writer: writer.writer)
    sut.record(quote("68901.23"))
    sut.record(quote("68950.00"))

    sut.flush()
    #expect(store.savedQuotes.isEmpty, "the flush left the newest to the write in flight")
    writer.runAll()

    #expect(store.savedQuotes == [quote("68901.23"), quote("68950.00")])
  }

  @Test func aFlushTheWriteInFlightAnswered_isOwedNoMore() async {
    let store = PriceStoreSpy()
    let writer = HeldWriter()
    let clock = SteppedTestClock()
    let sut = PriceCache(store: store, clock: clock, writer: writer.writer)
    sut.record(quote("1", at: quoteTime))
    sut.flush()
    writer.runAll()
    await clock.advance(to: .seconds(10))
    sut.record(quote("2", at: quoteTime + 10))
    sut.record(quote("3", at: quoteTime + 11))

    writer.runAll()

    #expect(
      store.savedQuotes == [quote("1", at: quoteTime), quote("2", at: quoteTime + 10)],
      "the price that came during the second write waits for the next interval or flush")
    await clock.advance(to: .seconds(20))
    sut.record(nil)
    writer.runAll()
    #expect(store.savedQuotes.last == quote("3", at: quoteTime + 11))
  }

  @Test func aFlushWithNoWriteInFlight_writesOnTheCallersThreadAtOnce() {
    let store = PriceStoreSpy()
    let writer = HeldWriter()
    let sut = PriceCache(store: store, clock: SteppedTestClock(), writer: writer.writer)
    sut.record(quote("68901.23"))
    writer.runAll()
    sut.record(quote("68950.00"))

    sut.flush()

    #expect(store.savedQuotes.last == quote("68950.00"))
    #expect(writer.count == 0)
  }

  @Test func aFailedWrite_isWarnedWhenTheWriterRunsIt() {
    let warnings = Locked<[PriceFeedWarning]>([])
    let writer = HeldWriter()
    let sut = PriceCache(
      store: PriceStoreSpy(saveError: "disk full"), clock: SteppedTestClock(),
      writer: writer.writer, warn: { warnings.append($0) })

    sut.record(quote("68901.23"))
    #expect(warnings.value.isEmpty)
    writer.runAll()

    #expect(warnings.value == [.cacheNotSaved("disk full")])
  }

  @Test func aLimitIsWrittenWhereTheWriterRunsIt() {
    let store = InMemorySourceLimitStore()
    let writer = HeldWriter()
    let sut = SourceLimits(
      store: store,
      targets: ["binance": .init(endpoint: "https://api.binance.com", apiKeyGiven: false)],
      now: { Date(timeIntervalSince1970: 1_795_356_185) }, writer: writer.writer)

    sut.record(
      .circuitChanged(
        .binance,
        CircuitTransition(
          from: .closed, to: .open, coolDown: .seconds(600),
          cause: .rateLimited(status: 418, retryAfter: .seconds(600), message: nil))))
    #expect(store.saves.isEmpty)
    writer.runAll()

    #expect(store.saves.count == 1)
  }

  @Test func anAlertRuleChangingSides_isWrittenWhereTheWriterRunsIt() throws {
    let store = InMemoryAlertStateStore()
    let writer = HeldWriter()
    let runStarted = quoteTime
    let sut = AlertEngine(
      rules: [try AlertRule.parse("above:100000")], currency: "USD", clock: SteppedTestClock(),
      runStarted: runStarted, store: store, writer: writer.writer)

    _ = sut.evaluate(.fresh(quote("99000", at: quoteTime.addingTimeInterval(1))))
    #expect(store.saves.isEmpty)
    writer.runAll()

    #expect(store.saves.count == 1)
  }

  @Test func aFetchedHistory_isWrittenWhereTheWriterRunsItOneFilePerRange() async throws {
    let store = InMemoryCandleStore()
    let writer = HeldWriter()
    let series = CandleSeries.of([.flat(1_795_355_700, "68900")], fetchedAt: 1_795_356_000)
    let sut = CandleHistory(
      currency: .usd, store: store, load: { _ in series }, clock: SteppedTestClock(),
      now: { Date(timeIntervalSince1970: 1_795_356_000) }, writer: writer.writer)

    _ = try await sut.refreshIfDue(.day)
    _ = try await sut.refreshIfDue(.week)
    #expect(store.saved.isEmpty, "nothing written on the caller's thread")
    #expect(Set(writer.files).count == 2, "each range is a file of its own")
    writer.runAll()

    #expect(store.saved.map(\.range) == [.day, .week])
  }
}

/// A writer that holds every write until the test runs them, as a writer's thread would later.
private final class HeldWriter: Sendable {
  private let held = Locked<[(file: StoreWriter.File, write: @Sendable () -> Void)]>([])

  var writer: StoreWriter {
    StoreWriter { [held] file, write in held.append((file, write)) }
  }

  var count: Int { held.value.count }

  /// The files of the writes held, in the order they were handed over.
  var files: [StoreWriter.File] { held.value.map(\.file) }

  func runAll() {
    while let next = held.withValue({ $0.isEmpty ? nil : $0.removeFirst() }) { next.write() }
  }
}
