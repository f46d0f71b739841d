import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Report what the sources do", .hangLimit(.seconds(30)))
struct SourceReportTests {
  let refusal = PriceSourceError.httpStatus(451, message: "restricted")

  @Test func warnsOncePerSourceAndStatusWhenACircuitOpensWithAdvice() {
    let warnings = Locked<[String]>([])
    let sut = SourceReport(
      log: nil, warn: { warnings.append($0) },
      advice: { source, cause, _ in
        guard case .httpStatus(let status, _) = cause else { return nil }
        return (key: "\(status)", text: "\(source.id) said \(status)")
      })

    for _ in 0..<3 {
      sut.record(.circuitChanged(.binance, opened(by: refusal)))
    }
    sut.record(.circuitChanged(.binance, opened(by: .httpStatus(403, message: nil))))
    sut.record(.circuitChanged(.kraken, opened(by: refusal)))
    sut.record(.circuitChanged(.coinbase, opened(by: .timedOut(after: .seconds(1)))))

    #expect(warnings.value == ["binance said 451", "binance said 403", "kraken said 451"])
  }

  @Test func chainLine_namesTheChainAndWhatWasLeftOutForTheCurrency() {
    #expect(
      SourceReport.chainLine(
        currency: .jpy, sourceIDs: ["binance", "coinbase"], leftOutIDs: ["cryptocompare"])
        == "BTC/JPY from binance, coinbase; left out, with no BTC/JPY market: cryptocompare")
    #expect(
      SourceReport.chainLine(currency: .usd, sourceIDs: ["kraken"], leftOutIDs: [])
        == "BTC/USD from kraken")
  }

  @Test func verbose_logsEveryEventAtItsLevel() {
    let lines = Locked<[String]>([])
    let sut = SourceReport(
      log: { level, line in lines.append("\(level) \(line)") }, warn: { _ in },
      advice: { _, _, _ in nil })
    let quote = PriceQuote(
      value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 0),
      source: .binance)

    sut.tickStarted(3, budget: .milliseconds(999))
    sut.record(.delivered(.binance, quote, latency: .milliseconds(12)))
    sut.record(.failed(.kraken, .unreachable("connection refused"), latency: .milliseconds(3)))
    sut.record(.skipped(.coinbase, .skipped("no time left in this tick")))
    sut.record(.circuitChanged(.binance, opened(by: refusal)))
    sut.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))

    #expect(
      lines.value == [
        "debug tick 3 started, 999 ms to get a price",
        "info binance delivered 68901.23 in 12 ms",
        "info kraken failed after 3 ms: unreachable: connection refused",
        "debug coinbase not tried: no time left in this tick",
        "notice binance circuit closed -> open for 60 min after: HTTP 451: restricted",
        "notice binance circuit open -> half-open (one probe)",
      ])
  }

  private func opened(by cause: PriceSourceError) -> CircuitTransition {
    CircuitTransition(from: .closed, to: .open, coolDown: .seconds(3600), cause: cause)
  }
}
