import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite(
  "Load the price history from the exchanges", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct LoadHistoryFromTheExchangesUseCaseTests {
  static let now = Date(timeIntervalSince1970: 1_795_356_000)
  static let binanceDay = """
    [[1795355700000,"68901.23","68950","68880.5","68940","1",1795355999999],\
    [1795356000000,"68940","68990.1","68930","68985.99","1",1795356299999]]
    """
  static let coinbaseDay = """
    [[1795356000,68930,68990.1,68940,68985.99,1],[1795355700,68880.5,68950,68901.23,68940,1]]
    """

  @Test func theFirstExchangeWithDrawableCandles_givesTheHistory() async throws {
    let client = HostRoutedClient([
      "api.binance.com": .init(status: 200, body: #"[[1795355700000,"1","0.5","1","1"]]"#),
      "api.exchange.coinbase.com": .init(status: 200, body: Self.coinbaseDay),
    ])
    let events = Locked<[PriceSourceEvent]>([])

    let series = try await makeSUT(client: client, onEvent: { events.append($0) })(.day)

    #expect(series.source == .coinbase)
    #expect(series.period == .seconds(300))
    #expect(series.currency == .usd)
    #expect(series.fetchedAt == Self.now)
    #expect(series.candles.last == .at(1_795_356_000, "68940", "68990.1", "68930", "68985.99"))
    #expect(
      events.value.first
        == .failed(
          .binance, .invalidData("candle at 1795355700: high 0.5 is below low 1"),
          latency: .zero))
    #expect(client.hosts == ["api.binance.com", "api.exchange.coinbase.com"])
  }

  @Test func aRateLimit_isKeptUnderItsEndpointAndLeavesTheExchangeAloneForEveryRange()
    async throws
  {
    let client = HostRoutedClient([
      "api.binance.com": .init(
        status: 429, headers: ["Retry-After": "30"],
        body: #"{"code":-1003,"msg":"Too much request weight used"}"#),
      "api.exchange.coinbase.com": .init(status: 200, body: Self.coinbaseDay),
    ])
    let limits = Locked<[String]>([])
    let sut = makeSUT(
      client: client,
      onLimit: { source, url, cause, coolDown in
        limits.append("\(source.id) \(url.host ?? "") \(cause) \(coolDown)")
      })

    _ = try await sut(.day)
    _ = try await sut(.day)

    #expect(
      limits.value == [
        "binance api.binance.com rate limited: HTTP 429: Too much request weight used "
          + "(retry after 30 s) 30.0 seconds"
      ])
    #expect(
      client.hosts == ["api.binance.com", "api.exchange.coinbase.com", "api.exchange.coinbase.com"])
  }

  @Test func ordinaryFailures_openTheBreakerButAreNotKeptAcrossRuns() async throws {
    // Three 503s open Binance's breaker for 5 s: that says nothing about the next run.
    let client = HostRoutedClient([
      "api.binance.com": .init(status: 503, body: "<html>Service Unavailable</html>"),
      "api.exchange.coinbase.com": .init(status: 200, body: Self.coinbaseDay),
    ])
    let limits = Locked<[String]>([])
    let events = Locked<[PriceSourceEvent]>([])
    let sut = makeSUT(
      client: client, onLimit: { source, _, _, _ in limits.append(source.id) },
      onEvent: { events.append($0) })

    for _ in 0..<3 { _ = try await sut(.day) }

    #expect(
      events.value.contains {
        if case .circuitChanged(.binance, let transition) = $0 { return transition.to == .open }
        return false
      })
    #expect(limits.value.isEmpty)
  }

  @Test func aLimitFromAnEarlierRun_onTheExchangesEndpoint_isRespected() async throws {
    let client = HostRoutedClient([
      "api.binance.com": .init(status: 200, body: Self.binanceDay),
      "api.exchange.coinbase.com": .init(status: 200, body: Self.coinbaseDay),
    ])
    let asked = Locked<[String]>([])
    let sut = makeSUT(
      client: client,
      inheritedLimit: { source, url in
        asked.append("\(source.id) \(url.host ?? "")")
        return source == .binance
          ? .init(
            remaining: .seconds(120),
            cause: .rateLimited(status: 418, retryAfter: nil, message: nil))
          : nil
      })

    let series = try await sut(.day)

    #expect(series.source == .coinbase)
    // Each asked when the chain is made, and Coinbase again before its request.
    #expect(
      asked.value == [
        "binance api.binance.com", "coinbase api.exchange.coinbase.com",
        "coinbase api.exchange.coinbase.com",
      ])
    #expect(client.hosts == ["api.exchange.coinbase.com"])
  }

  @Test func aLimitSetSinceTheChainWasMade_isRespectedBeforeTheNextRequest() async throws {
    let client = HostRoutedClient([
      "api.binance.com": .init(status: 200, body: Self.binanceDay),
      "api.exchange.coinbase.com": .init(status: 200, body: Self.coinbaseDay),
    ])
    // The prices meet a ban at api.binance.com after the history's chain was made.
    let banned = Locked(false)
    let sut = makeSUT(
      client: client,
      inheritedLimit: { source, _ in
        banned.value && source == .binance
          ? .init(
            remaining: .seconds(120),
            cause: .rateLimited(status: 418, retryAfter: nil, message: nil)) : nil
      })

    let before = try await sut(.day)
    banned.withValue { $0 = true }
    let after = try await sut(.day)

    #expect(before.source == .binance)
    #expect(after.source == .coinbase)
    // Asking again during a ban lengthens it: no request to Binance once it is banned.
    #expect(client.hosts == ["api.binance.com", "api.exchange.coinbase.com"])
  }

  @Test func everyExchangeFailing_saysWhyForEach() async throws {
    let client = HostRoutedClient([
      "api.binance.com": .init(
        status: 451, body: #"{"code":0,"msg":"Service unavailable from a restricted location"}"#),
      "api.exchange.coinbase.com": .init(status: 200, body: "[]"),
    ])

    await #expect(throws: PriceFetchFailure.self) { try await makeSUT(client: client)(.day) }
    do {
      _ = try await makeSUT(client: client)(.day)
    } catch let failure as PriceFetchFailure {
      #expect(
        failure.description
          == "binance: HTTP 451: Service unavailable from a restricted location; coinbase: "
          + "invalid data: no candles")
    }
  }

  private func makeSUT(
    client: HostRoutedClient,
    inheritedLimit: @escaping @Sendable (PriceSource, URL) -> PriceSourceChain.InheritedLimit? = {
      _, _ in nil
    },
    onLimit: @escaping @Sendable (PriceSource, URL, PriceSourceError, Duration) -> Void = {
      _, _, _, _ in
    },
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> CandleHistory.Loader {
    CandleHistory.RemoteChain(
      [PriceSourceDefinition.binance.candles!, PriceSourceDefinition.coinbase.candles!],
      currency: .usd, client: client, clock: ContinuousClock(),
      now: { Self.now }, inheritedLimit: inheritedLimit, onLimit: onLimit,
      onEvent: { event in
        // Latencies are real time here: kept out of the comparison.
        if case .failed(let source, let error, _) = event {
          onEvent(.failed(source, error, latency: .zero))
        } else {
          onEvent(event)
        }
      }
    ).load
  }
}

/// Answers each request by its host, recording the hosts asked.
private final class HostRoutedClient: BTCHTTPClient {
  private let answers: [String: BTCHTTPResponse]
  private let asked = Locked<[String]>([])

  init(_ answers: [String: BTCHTTPResponse]) {
    self.answers = answers
  }

  var hosts: [String] { asked.value }

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    let host = request.url.host ?? ""
    asked.append(host)
    guard let answer = answers[host] else { throw BTCHTTPClientError.connectionRefused }
    return answer
  }
}

extension BTCHTTPResponse {
  fileprivate init(status: Int, headers: [String: String] = [:], body: String) {
    self.init(status: status, headers: headers, body: Data(body.utf8))
  }
}
