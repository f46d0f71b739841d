import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Keep the limits sources set across runs", .hangLimit(.seconds(30)))
struct KeepLimitsAcrossRunsUseCaseTests {
  let now = Date(timeIntervalSince1970: 1_795_356_185)
  let binance = SourceLimits.Target(endpoint: "https://api.binance.com", apiKeyGiven: false)
  let ban = PriceSourceError.rateLimited(status: 418, retryAfter: .seconds(600), message: nil)

  @Test func aBan_isWrittenWhenItIsSetAndRemovedWhenItEnds() {
    let store = InMemorySourceLimitStore()
    let sut = makeSUT(store: store)

    sut.record(.circuitChanged(.binance, opening(.seconds(600), ban)))
    sut.record(.skipped(.binance, .skipped("cooling down")))
    sut.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))

    #expect(
      store.saves == [
        [
          SourceLimit(
            source: "binance", endpoint: "https://api.binance.com",
            until: now.addingTimeInterval(600), cause: ban, apiKeyGiven: false)
        ],
        [],
      ])
  }

  @Test func ordinaryFailures_areNeverWritten() {
    let store = InMemorySourceLimitStore()
    let sut = makeSUT(store: store)

    sut.record(
      .circuitChanged(.binance, opening(.seconds(5), .timedOut(after: .milliseconds(800)))))
    sut.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))
    sut.record(.failed(.binance, .httpStatus(500, message: nil), latency: .zero))

    #expect(store.saves.isEmpty)
  }

  @Test func restore_handsOnLimitsThatStillHoldAndPrunesTheRest() {
    let store = InMemorySourceLimitStore(stored: [
      limit("binance", until: now.addingTimeInterval(599), cause: ban),
      limit("kraken", until: now.addingTimeInterval(-1), cause: ban),
    ])
    let sut = makeSUT(store: store, targets: ["binance": binance, "kraken": binance])

    #expect(sut.restore() == ["binance": .init(remaining: .seconds(599), cause: ban)])
    sut.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))
    #expect(store.saves == [[]], "the expired limit went with the next write")
  }

  @Test(arguments: [(9.999, true), (10, false), (10.001, false)])
  func aWriteMidRun_prunesTheLimitsThatEndedSinceTheStart(after seconds: Double, kept: Bool)
    throws
  {
    // The run's clock moves on: a limit that held at the start ends while the run goes on, and
    // the next write (another source banned) must not carry it into the next run.
    let clock = Locked(now)
    let store = InMemorySourceLimitStore(stored: [
      limit("binance", until: now.addingTimeInterval(10), cause: ban),
      limit("kraken", until: now.addingTimeInterval(600), cause: ban),
    ])
    let sut = SourceLimits(
      store: store, targets: ["binance": binance, "kraken": binance, "coinbase": binance],
      now: { clock.value })
    #expect(sut.restore().count == 2)

    clock.withValue { $0 = $0.addingTimeInterval(seconds) }
    sut.record(.circuitChanged(.coinbase, opening(.seconds(60), ban)))

    let written = try #require(store.saves.last)
    #expect(
      written.map(\.source)
        == (kept ? ["binance", "kraken", "coinbase"] : ["kraken", "coinbase"]))
  }

  @Test(arguments: [(-0.001, false), (0, false), (0.001, true)])
  func restore_handsOnOnlyALimitThatEndsAfterNow(endsIn seconds: Double, restored: Bool) {
    let store = InMemorySourceLimitStore(stored: [
      limit("binance", until: now.addingTimeInterval(seconds), cause: ban)
    ])

    #expect(makeSUT(store: store).restore().isEmpty == !restored)
  }

  @Test func restore_ignoresALimitOnAnotherEndpoint() {
    let store = InMemorySourceLimitStore(stored: [
      limit("binance", until: now.addingTimeInterval(599), cause: ban)
    ])
    let us = SourceLimits.Target(endpoint: "https://api.binance.us", apiKeyGiven: false)

    #expect(makeSUT(store: store, targets: ["binance": us]).restore().isEmpty)
  }

  @Test func restore_ignoresARefusalOfAKeylessRequestOnceAKeyIsGiven() {
    let refusal = PriceSourceError.httpStatus(401, message: "API key required")
    let store = InMemorySourceLimitStore(stored: [
      limit("binance", until: now.addingTimeInterval(3000), cause: refusal)
    ])
    let withKey = SourceLimits.Target(endpoint: "https://api.binance.com", apiKeyGiven: true)

    #expect(makeSUT(store: store, targets: ["binance": withKey]).restore().isEmpty)
    #expect(makeSUT(store: store).restore().count == 1)
  }

  @Test func restore_ofAnUnreadableStore_knowsNoLimitsAndWarnsOnce() {
    let warnings = Locked<[String]>([])
    let sut = SourceLimits(
      store: InMemorySourceLimitStore(loadError: "ignoring corrupt state file x"),
      targets: ["binance": binance], now: { [now] in now }, warn: { warnings.append($0) })

    #expect(sut.restore().isEmpty)
    #expect(
      warnings.value == ["ignoring corrupt state file x; no limits from earlier runs are known"])
  }

  // MARK: - Helpers

  private func makeSUT(
    store: InMemorySourceLimitStore, targets: [String: SourceLimits.Target]? = nil
  ) -> SourceLimits {
    SourceLimits(store: store, targets: targets ?? ["binance": binance], now: { [now] in now })
  }

  private func opening(_ coolDown: Duration, _ cause: PriceSourceError) -> CircuitTransition {
    CircuitTransition(from: .closed, to: .open, coolDown: coolDown, cause: cause)
  }

  private func limit(_ source: String, until: Date, cause: PriceSourceError) -> SourceLimit {
    SourceLimit(
      source: source, endpoint: "https://api.binance.com", until: until, cause: cause,
      apiKeyGiven: false)
  }
}
