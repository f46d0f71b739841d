import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceCommandLine

/// What `--verbose` says before the first tick, and what `serve` says once it listens.
@Suite("Say how the run starts", .hangLimit(.seconds(30)))
struct SayHowTheRunStartsUseCaseTests {
  @Test func theChain_theSourcesLeftOut_andTheWayEachGoes() throws {
    let options = try resolve(["currency": "GBP", "proxy": "http://proxy.example:3128"])

    let lines = StartReport.chainLines(options)

    let serving = PriceSourceRegistry.serving(.gbp).map(\.source.id)
    let others = PriceSourceRegistry.all.map(\.source.id).filter { !serving.contains($0) }
    #expect(
      lines.first
        == "BTC/GBP from \(serving.joined(separator: ", ")); left out, with no BTC/GBP market: "
        + others.joined(separator: ", "))
    #expect(
      Array(lines.dropFirst())
        == serving.map { "\($0) goes through http://proxy.example:3128 (from the proxy setting)" })
  }

  @Test func aCostBasisInAnotherCurrency_saysWhyNoGainIsShown_withoutTheAmounts() throws {
    let line = StartReport.holdingsLine(
      try resolve(["holdings": "0.25", "cost-basis": "15000 EUR"]))

    #expect(
      line == "no gain shown: the cost basis is in EUR, the price in USD, and btc-price converts "
        + "no currency")
    #expect(
      StartReport.holdingsLine(try resolve(["holdings": "0.25", "cost-basis": "15000 usd"]))
        == nil)
    #expect(StartReport.holdingsLine(try resolve(["holdings": "0.25"])) == nil)
  }

  @Test func theStreamsTheTicksReadFirst_theStandby_andTheWayEachGoes() throws {
    let options = try resolve(["sources": "binance,coinbase,kraken"])
    let streams = PriceStreamSet(
      sources: options.configuration.sources, currency: .usd,
      connector: TestWebSocketConnector(), clock: SteppedTestClock(), now: { Date() })

    #expect(
      StartReport.streamLines(options, streams: streams) == [
        "streams first: binance, coinbase (kraken stands in while one rests); REST when none is "
          + "alive",
        "binance stream goes direct", "coinbase stream goes direct", "kraken stream goes direct",
      ])
    #expect(
      StartReport.streamLines(try resolve(["currency": "CHF"]), streams: nil) == [
        "streams: no source in the chain has one in CHF; every tick asks REST"
      ])
  }

  @Test func theServingLine_bracketsAnIPv6Host() {
    #expect(
      ServeFrontEnd.Listener(host: "::1", port: 0, connectionsPerAddress: 1).servingLine(
        port: 8080) == "Serving the Bitcoin price on http://[::1]:8080/ (Ctrl-C to stop)\n")
    #expect(
      ServeFrontEnd.Listener(host: "127.0.0.1", port: 0, connectionsPerAddress: 1).servingLine(
        port: 80) == "Serving the Bitcoin price on http://127.0.0.1:80/ (Ctrl-C to stop)\n")
  }

  private func resolve(_ commandLine: [String: String]) throws -> ResolvedOptions {
    try ResolvedOptions.resolve(
      commandLine: commandLine, environment: ["HOME": "/nonexistent-home"], configPath: nil,
      noCache: true)
  }
}
