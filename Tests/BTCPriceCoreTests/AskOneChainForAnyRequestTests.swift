import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

/// The walk prices and candles share (``SourceChain``): what it does beyond a price chain's
/// tests is carry the request, and keep one breaker per source whatever is asked.
@Suite("Ask one chain for any request", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct AskOneChainForAnyRequestTests {
  @Test func eachSource_isAskedForTheRequestGiven() async throws {
    let asked = Locked<[String]>([])
    let sut = SourceChain<String, String>(
      [
        .init(source: .binance) { range in
          asked.append("binance \(range)")
          throw PriceSourceError.invalidData("no candles")
        },
        .init(source: .coinbase) { range in
          asked.append("coinbase \(range)")
          return "coinbase's \(range)"
        },
      ], clock: SteppedTestClock())

    #expect(try await sut.load("7d", within: .seconds(15)) == "coinbase's 7d")
    #expect(asked.value == ["binance 7d", "coinbase 7d"])
  }

  @Test func aSourceThatRateLimitedOneRequest_isLeftAloneForTheOthers() async throws {
    let asked = Locked<[String]>([])
    let events = Locked<[PriceSourceEvent]>([])
    let sut = SourceChain<String, String>(
      [
        .init(source: .binance) { range in
          asked.append("binance \(range)")
          throw PriceSourceError.rateLimited(
            status: 429, retryAfter: .seconds(30), message: "Too much request weight used")
        },
        .init(source: .coinbase) { range in "coinbase's \(range)" },
      ], clock: SteppedTestClock(), onEvent: { events.append($0) })

    _ = try await sut.load("24h", within: .seconds(15))
    #expect(try await sut.load("30d", within: .seconds(15)) == "coinbase's 30d")

    #expect(asked.value == ["binance 24h"])
    #expect(
      events.value.contains {
        if case .skipped(.binance, .skipped(let reason)) = $0 {
          return reason.hasPrefix("cooling down for 30 s")
        }
        return false
      })
  }

  @Test func theAnswer_isReportedWithItsSource() async throws {
    let delivered = Locked<[String]>([])
    let sut = SourceChain<String, String>(
      [.init(source: .kraken) { _ in "candles" }], clock: SteppedTestClock(),
      onDelivered: { source, value, _ in delivered.append("\(source.id): \(value)") })

    _ = try await sut.load("24h", within: .seconds(15))

    #expect(delivered.value == ["kraken: candles"])
  }
}
