import BTCPriceCore
import BTCPricePipeline
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// `PricePipeline` with `Configuration.stream`: the streams it opens, and a tick that reads them
/// first and asks REST only when none is alive.
@Suite(
  "Tick through the streams when the pipeline has them", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct TickThroughStreamsUseCaseTests {
  @Test func streams_openOnlyWhenAskedForAndGivenAConnector() {
    #expect(makeSUT(stream: false).pipeline.streams == nil)
    #expect(makeSUT(stream: true, connector: false).pipeline.streams == nil)
    #expect(
      makeSUT(stream: true).pipeline.streams?.streams.map(\.source.id) == ["binance", "coinbase"])
  }

  /// `--sources cryptocompare`: nothing to stream, so ticks ask REST without a word about streams.
  @Test func noSourceWithAStream_ticksOverRESTAlone_andReportsNoStreams() async throws {
    let (pipeline, client, reports) = makeSUT(stream: true, sources: [.cryptoCompare])

    _ = try await pipeline.feed.update(within: .seconds(1))

    #expect(pipeline.streams == nil)
    #expect(client.requests.count == 1)
    #expect(reports.value.isEmpty)
  }

  @Test func aliveStream_givesTheTicksPrice_withoutARequest() async throws {
    let (pipeline, client, reports) = makeSUT(stream: true)
    let streams = try #require(pipeline.streams)
    streams.board.record(.trade(Decimal(string: "70123.45")!), from: .binance)

    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(update == .fresh(try #require(update.quote)))
    #expect(update.quote?.value == Decimal(string: "70123.45"))
    #expect(client.requests.isEmpty)
    #expect(
      reports.value.contains {
        if case .tick(.priceFrom(.stream(.binance), _)) = $0 { true } else { false }
      })
  }

  @Test func noAliveStream_asksREST_andSaysSo() async throws {
    let (pipeline, client, reports) = makeSUT(stream: true)

    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(update == .fresh(try #require(update.quote)))
    #expect(update.quote?.value == Decimal(string: "68880.55"))
    #expect(client.requests.count == 1)
    #expect(reports.value.contains(.tick(.fellBackToREST(silent: [.binance, .coinbase]))))
    #expect(
      reports.value.contains { if case .tick(.priceFrom(.rest, _)) = $0 { true } else { false } })
  }

  /// Offline, both streams fail at once: the first tick asks REST then, not after the wait.
  @Test func firstTick_waitsNoLonger_onceEveryStreamHasFailed() async throws {
    let failing = ScriptedConnector(
      scripts: [
        .init(messages: [], then: .end(.unreachable("no host"))),
        .init(messages: [], then: .end(.unreachable("no host"))),
      ])
    let (pipeline, _, _) = makeSUT(stream: true, scripted: failing)
    let streams = try #require(pipeline.streams)
    let running = Task { await pipeline.runStreams() }
    await waitUntil {
      streams.streams.allSatisfy { streams.board.entry(for: $0.source).lastError != nil }
    }

    // The test clock never moves: only the failed streams can end this wait.
    await pipeline.waitForFirstStreamPrice(atMost: .milliseconds(800))

    running.cancel()
    await running.value
  }

  /// One stream's price alone does not end the wait: the first tick is cross-checked too.
  @Test func firstTick_waitsForEveryStreamToPrice() async throws {
    let clock = SteppedTestClock()
    let (pipeline, _, _) = makeSUT(stream: true, clock: clock)
    let streams = try #require(pipeline.streams)
    streams.board.record(.trade(Decimal(string: "70123.45")!), from: .binance)
    let finished = Locked(false)
    let waiting = Task {
      await pipeline.waitForFirstStreamPrice(atMost: .milliseconds(800))
      finished.withValue { $0 = true }
    }

    await clock.advance(to: .milliseconds(20), afterSleeps: 1)
    await waitUntil({ clock.sleepsStarted >= 2 || finished.value }, "the wait never went on")
    #expect(!finished.value)

    streams.board.record(.trade(Decimal(string: "70100.10")!), from: .coinbase)
    await clock.advance(to: .milliseconds(40), afterSleeps: 2)
    await waiting.value
    #expect(clock.elapsed == .milliseconds(40))
  }

  /// Streams that never speak are waited for the whole limit, in steps of 20 ms, and no longer.
  @Test func firstTick_waitsItsWholeLimitAndNoLonger_forStreamsThatNeverSpeak() async throws {
    let clock = SteppedTestClock()
    let (pipeline, _, _) = makeSUT(stream: true, clock: clock)
    let finished = Locked(false)
    let waiting = Task {
      await pipeline.waitForFirstStreamPrice(atMost: .milliseconds(100))
      finished.withValue { $0 = true }
    }

    for step in 1...5 {
      await clock.advance(to: .milliseconds(20 * Int64(step)), afterSleeps: step)
    }
    await waitUntil({ finished.value || clock.sleepsStarted > 5 })

    #expect(finished.value, "the wait ended at its limit")
    #expect(clock.sleepsStarted == 5, "five steps of 20 ms, not a sixth")
    #expect(clock.elapsed == .milliseconds(100))
    waiting.cancel()
    await waiting.value
  }

  private func makeSUT(
    stream: Bool, connector: Bool = true, scripted: ScriptedConnector? = nil,
    sources: [PriceSourceDefinition] = [.binance, .coinbase],
    clock: SteppedTestClock = SteppedTestClock()
  ) -> (
    pipeline: PricePipeline, client: StubHTTPClient,
    reports: Locked<[PricePipeline.StreamReport]>
  ) {
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68880.55"}"#)
    let reports = Locked<[PricePipeline.StreamReport]>([])
    let pipeline = PricePipeline(
      .init(sources: sources, primaryTimeout: .seconds(1), stream: stream),
      client: client, clock: clock, now: { Date(timeIntervalSince1970: 0) },
      store: nil, limitStore: nil,
      streamConnector: connector ? scripted ?? ScriptedConnector(scripts: []) : nil,
      warn: { _ in },
      onStream: { report in reports.append(report) })
    return (pipeline, client, reports)
  }
}
