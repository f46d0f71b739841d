import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// A stream's refused handshake as a limit: which statuses set one, which also leave the
/// exchange's REST alone, and how it is kept beside REST's own limit of the same exchange.
@Suite("Keep a stream's limits across runs", .hangLimit(.seconds(30)))
struct KeepStreamLimitsAcrossRunsUseCaseTests {
  let now = Date(timeIntervalSince1970: 1_795_356_185)
  let stream = "wss://data-stream.binance.vision"

  @Test func refusedUpgrades_areTheErrorsRESTWouldHaveReported() {
    let message = "the stream's upgrade was refused"
    #expect(
      StreamRefusal.cause(of: .handshakeFailed(status: 451, reason: "x"))
        == .httpStatus(451, message: message))
    #expect(
      StreamRefusal.cause(of: .handshakeFailed(status: 403, reason: "x"))
        == .httpStatus(403, message: message))
    #expect(
      StreamRefusal.cause(of: .handshakeFailed(status: 401, reason: "x"))
        == .httpStatus(401, message: message))
    #expect(
      StreamRefusal.cause(of: .handshakeFailed(status: 429, reason: "x", retryAfter: .seconds(9)))
        == .rateLimited(status: 429, retryAfter: .seconds(9), message: message))
    #expect(
      StreamRefusal.cause(of: .handshakeFailed(status: 418, reason: "x"))
        == .rateLimited(status: 418, retryAfter: nil, message: message))
  }

  @Test func failuresThatAreNoRefusal_setNoLimit() {
    #expect(StreamRefusal.cause(of: .handshakeFailed(status: nil, reason: "no answer")) == nil)
    #expect(StreamRefusal.cause(of: .handshakeFailed(status: 500, reason: "oops")) == nil)
    #expect(StreamRefusal.cause(of: .handshakeFailed(status: 400, reason: "bad")) == nil)
    #expect(StreamRefusal.cause(of: .handshakeFailed(status: 402, reason: "pay")) == nil)
    #expect(StreamRefusal.cause(of: .closed(code: 1008)) == nil)
    #expect(StreamRefusal.cause(of: .unreachable("reset")) == nil)
  }

  @Test func regionBlockAndBan_limitREST_rateLimitAndForbidden_limitTheStreamOnly() {
    let limitsREST = [451, 418, 429, 403].map { status in
      StreamRefusal.cause(of: .handshakeFailed(status: status, reason: "x")).map(
        StreamRefusal.limitsREST)
    }
    #expect(limitsREST == [true, true, false, false])
  }

  @Test func streamLimit_isReadByTheNextRun_andIsNoRESTLimit() {
    let store = InMemorySourceLimitStore()
    let cause = PriceSourceError.httpStatus(451, message: nil)
    makeSUT(store: store).recordStreamLimit(
      source: "binance", endpoint: stream, cause: cause, coolDown: .seconds(3600))

    let next = makeSUT(store: store, at: now.addingTimeInterval(600))
    let inheritedREST = next.restore()

    #expect(inheritedREST.isEmpty)
    #expect(
      next.streamLimit(source: "binance", endpoint: stream)
        == .init(remaining: .seconds(3000), cause: cause))
    #expect(next.streamLimit(source: "binance", endpoint: "wss://stream.binance.com:9443") == nil)
  }

  /// The runners and doctor know a stream by its URL; the limit is kept by its host.
  @Test func streamLimitByURL_isKeptForTheStreamsHost_whateverItsPath() {
    let store = InMemorySourceLimitStore()
    let cause = PriceSourceError.httpStatus(403, message: nil)
    makeSUT(store: store).recordStreamLimit(
      source: "binance", url: URL(string: "wss://data-stream.binance.vision/ws/btcusdt@trade")!,
      cause: cause, coolDown: .seconds(3600))

    let next = makeSUT(store: store, at: now.addingTimeInterval(600))
    _ = next.restore()

    #expect(store.stored.map(\.endpoint) == ["wss://data-stream.binance.vision"])
    #expect(
      next.streamLimit(
        source: "binance", url: URL(string: "wss://data-stream.binance.vision/ws/btceur@trade")!)
        == .init(remaining: .seconds(3000), cause: cause))
  }

  @Test func restLimitEnding_leavesTheStreamLimitOfTheSameExchange() {
    let store = InMemorySourceLimitStore()
    let sut = makeSUT(store: store)
    _ = sut.restore()
    let ban = PriceSourceError.rateLimited(status: 418, retryAfter: .seconds(600), message: nil)
    sut.recordStreamLimit(source: "binance", endpoint: stream, cause: ban, coolDown: .seconds(600))
    sut.record(
      .circuitChanged(
        .binance,
        CircuitTransition(from: .closed, to: .open, coolDown: .seconds(600), cause: ban)))
    #expect(store.stored.count == 2)

    sut.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))

    #expect(store.stored.map(\.endpoint) == [stream])
  }

  /// A stream refused twice is left alone for the second refusal's time, with its words, in one
  /// line of the state file; the exchange's REST limit stays beside it.
  @Test func aStreamRefusedAgain_keepsOnlyTheNewestLimit_besideTheRESTLimit() {
    let store = InMemorySourceLimitStore()
    let sut = makeSUT(store: store)
    _ = sut.restore()
    let ban = PriceSourceError.rateLimited(status: 418, retryAfter: .seconds(600), message: nil)
    sut.record(
      .circuitChanged(
        .binance,
        CircuitTransition(from: .closed, to: .open, coolDown: .seconds(600), cause: ban)))
    let first = PriceSourceError.httpStatus(451, message: nil)
    let second = PriceSourceError.httpStatus(403, message: nil)

    sut.recordStreamLimit(
      source: "binance", endpoint: stream, cause: first, coolDown: .seconds(3600))
    sut.recordStreamLimit(
      source: "binance", endpoint: stream, cause: second, coolDown: .seconds(60))

    #expect(store.stored.map(\.endpoint).sorted() == ["https://api.binance.com", stream])
    #expect(
      sut.streamLimit(source: "binance", endpoint: stream)
        == .init(remaining: .seconds(60), cause: second))
  }

  /// REST banned again while banned: one limit, the newest.
  @Test func restBannedAgain_keepsOnlyTheNewestLimit() {
    let store = InMemorySourceLimitStore()
    let sut = makeSUT(store: store)
    _ = sut.restore()
    for coolDown in [Duration.seconds(600), .seconds(120)] {
      let ban = PriceSourceError.rateLimited(status: 418, retryAfter: coolDown, message: nil)
      sut.record(
        .circuitChanged(
          .binance, CircuitTransition(from: .closed, to: .open, coolDown: coolDown, cause: ban)))
    }

    #expect(store.stored.count == 1)
    #expect(store.stored.first?.until == now.addingTimeInterval(120))
  }

  /// A limit is over at its instant, and the next refusal's write leaves it out of the file.
  @Test func aStreamLimit_endsAtItsInstant_andLeavesTheFileAtTheNextRefusal() {
    let store = InMemorySourceLimitStore()
    let clock = Locked(now)
    let sut = SourceLimits(
      store: store,
      targets: ["binance": .init(endpoint: "https://api.binance.com", apiKeyGiven: false)],
      now: { clock.value })
    _ = sut.restore()
    let refused = PriceSourceError.httpStatus(403, message: nil)
    sut.recordStreamLimit(
      source: "coinbase", endpoint: "wss://ws-feed.exchange.coinbase.com", cause: refused,
      coolDown: .seconds(60))

    clock.withValue { $0 = now.addingTimeInterval(60) }
    #expect(
      sut.streamLimit(source: "coinbase", endpoint: "wss://ws-feed.exchange.coinbase.com") == nil)
    sut.recordStreamLimit(
      source: "binance", endpoint: stream, cause: refused, coolDown: .seconds(60))

    #expect(store.stored.map(\.endpoint) == [stream])
  }

  private func makeSUT(store: InMemorySourceLimitStore, at time: Date? = nil) -> SourceLimits {
    let now = time ?? now
    return SourceLimits(
      store: store,
      targets: ["binance": .init(endpoint: "https://api.binance.com", apiKeyGiven: false)],
      now: { now })
  }
}
