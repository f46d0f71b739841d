import BTCPriceCore
import BTCPriceTestSupport
import Testing

@Suite("Load price from the source chain", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct LoadPriceFromSourceChainUseCaseTests {
  let clock = SteppedTestClock()

  @Test func load_deliversPrimaryQuoteWithoutAskingFallback() async throws {
    let (sut, primary, fallback) = makeSUT(
      primary: LoaderStub(clock: clock, result: .success(quote("68901.23"))),
      fallback: LoaderStub(clock: clock, result: .success(quote("1", source: .cryptoCompare))))

    let loaded = try await sut.load(within: .seconds(1))

    #expect(loaded == quote("68901.23"))
    #expect(primary.callCount == 1)
    #expect(fallback.callCount == 0)
  }

  @Test func load_deliversFallbackQuoteWhenPrimaryErrors() async throws {
    let (sut, _, fallback) = makeSUT(
      primary: LoaderStub(clock: clock, result: .failure(.httpStatus(500, message: nil))),
      fallback: LoaderStub(
        clock: clock, result: .success(quote("68890.00", source: .cryptoCompare))))

    let loaded = try await sut.load(within: .seconds(1))

    #expect(loaded == quote("68890.00", source: .cryptoCompare))
    #expect(fallback.events.value == [.started(at: .zero), .finished(at: .zero)])
  }

  @Test func load_deliversFallbackQuoteWhenPrimaryDataIsInvalid() async throws {
    let (sut, _, _) = makeSUT(
      primary: LoaderStub(clock: clock, result: .failure(.invalidData("price is not positive"))),
      fallback: LoaderStub(
        clock: clock, result: .success(quote("68890.00", source: .cryptoCompare))))

    #expect(try await sut.load(within: .seconds(1)).source == .cryptoCompare)
  }

  @Test func load_cancelsPrimarySlowerThanItsDeadlineAndAsksFallbackAt800ms() async throws {
    let (sut, primary, fallback) = makeSUT(
      primary: LoaderStub(
        clock: clock, answersAt: .milliseconds(900), result: .success(quote())),
      fallback: LoaderStub(
        clock: clock, answersAt: .milliseconds(850),
        result: .success(quote("68890.00", source: .cryptoCompare))))

    let load = Task { try await sut.load(within: .seconds(1)) }
    await clock.advance(to: .milliseconds(800), afterSleeps: 2)
    await clock.advance(to: .milliseconds(850), afterSleeps: 4)

    #expect(try await load.value == quote("68890.00", source: .cryptoCompare))
    #expect(primary.events.value == [.started(at: .zero), .cancelled(at: .milliseconds(800))])
    #expect(
      fallback.events.value == [
        .started(at: .milliseconds(800)), .finished(at: .milliseconds(850)),
      ])
  }

  @Test func load_deliversPrimaryAnsweringAt500msWithoutAskingFallback() async throws {
    let (sut, _, fallback) = makeSUT(
      primary: LoaderStub(
        clock: clock, answersAt: .milliseconds(500), result: .success(quote())),
      fallback: LoaderStub(clock: clock, result: .success(quote("1", source: .cryptoCompare))))

    let load = Task { try await sut.load(within: .seconds(1)) }
    await clock.advance(to: .milliseconds(500), afterSleeps: 2)

    #expect(try await load.value == quote())
    #expect(fallback.callCount == 0)
  }

  @Test func load_givesFallbackOnlyWhatIsLeftOfTheBudget() async throws {
    let (sut, _, fallback) = makeSUT(
      primary: LoaderStub(clock: clock, answersAt: .seconds(5), result: .success(quote())),
      fallback: LoaderStub(
        clock: clock, answersAt: .milliseconds(1100),
        result: .success(quote("2", source: .cryptoCompare))))

    let load = Task { try await sut.load(within: .seconds(1)) }
    await clock.advance(to: .milliseconds(800), afterSleeps: 2)
    await clock.advance(to: .seconds(1), afterSleeps: 4)

    let failure = try #require(
      await #expect(throws: PriceFetchFailure.self) { try await load.value })
    #expect(
      failure.failures == [
        .init(source: .binance, error: .timedOut(after: .milliseconds(800))),
        .init(source: .cryptoCompare, error: .timedOut(after: .milliseconds(200))),
      ])
    #expect(fallback.events.value.last == .cancelled(at: .seconds(1)))
  }

  @Test func load_deliversEverySourcesErrorInOrderWhenAllFail() async throws {
    let (sut, _, _) = makeSUT(
      primary: LoaderStub(clock: clock, result: .failure(.unreachable("connection refused"))),
      fallback: LoaderStub(
        clock: clock, result: .failure(.httpStatus(401, message: "API key required"))))

    let failure = try #require(
      await #expect(throws: PriceFetchFailure.self) { try await sut.load(within: .seconds(1)) })

    #expect(
      failure.description
        == "binance: unreachable: connection refused; cryptocompare: HTTP 401: API key required")
  }

  @Test func load_skipsSourcesWhenNoBudgetIsLeft() async throws {
    let (sut, _, fallback) = makeSUT(
      primary: LoaderStub(clock: clock, answersAt: .seconds(2), result: .success(quote())),
      fallback: LoaderStub(clock: clock, result: .success(quote("2", source: .cryptoCompare))),
      primaryTimeout: .seconds(3))

    let load = Task { try await sut.load(within: .seconds(1)) }
    await clock.advance(to: .seconds(1), afterSleeps: 2)

    let failure = try #require(
      await #expect(throws: PriceFetchFailure.self) { try await load.value })
    #expect(
      failure.failures.map(\.error) == [
        .timedOut(after: .seconds(1)), .skipped("no time left in this tick"),
      ])
    #expect(fallback.callCount == 0)
  }

  /// A cancelled tick is a cancellation, not a failed source whose fall back is then asked (a
  /// request after the tick ended, a failure counted on the source): whether the source's
  /// request ends with the cancellation itself or, as a real transport may (SwiftNIO's client, a
  /// closed connection), with an error of its own.
  @Test(arguments: [
    nil, PriceSourceError.unreachable("connection closed"), .httpStatus(503, message: nil),
  ])
  func load_reportsCallerCancellationAsCancellationNotAsSourceFailure(
    whenCancelled: PriceSourceError?
  ) async throws {
    let (sut, primary, fallback) = makeSUT(
      primary: LoaderStub(
        clock: clock, answersAt: .milliseconds(500), result: .success(quote()),
        whenCancelled: whenCancelled),
      fallback: LoaderStub(clock: clock, result: .success(quote("2", source: .cryptoCompare))))

    let load = Task { try await sut.load(within: .seconds(1)) }
    await clock.advance(to: .milliseconds(100), afterSleeps: 2)
    load.cancel()

    await #expect(throws: CancellationError.self) { try await load.value }
    #expect(primary.events.value == [.started(at: .zero), .cancelled(at: .milliseconds(100))])
    #expect(fallback.callCount == 0)
  }

  // MARK: - Helpers

  private func makeSUT(
    primary: LoaderStub, fallback: LoaderStub, primaryTimeout: Duration = .milliseconds(800)
  ) -> (PriceSourceChain, LoaderStub, LoaderStub) {
    let sut = PriceSourceChain(
      [
        .init(source: .binance, loader: primary, timeout: primaryTimeout),
        .init(source: .cryptoCompare, loader: fallback),
      ],
      clock: clock)
    return (sut, primary, fallback)
  }
}
