import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The options, the environment and the settings file, resolved into one run.
@Suite("Resolve the options", .hangLimit(.seconds(30)))
struct ResolveTheOptionsUseCaseTests {
  let environment = ["HOME": "/nonexistent-home", "XDG_STATE_HOME": "/state"]

  @Test func onAlertAndNotify_needARule() {
    for given in [["on-alert": "echo"], [:]] {
      #expect(throws: ResolvedOptions.Invalid.self) {
        try ResolvedOptions.resolve(
          commandLine: given, environment: environment, configPath: nil, notify: given.isEmpty)
      }
    }
    #expect(
      throws: Never.self,
      "a rule from any layer will do"
    ) {
      try ResolvedOptions.resolve(
        commandLine: ["on-alert": "echo"],
        environment: environment.merging(["BTC_PRICE_ALERTS": "above:1"]) { $1 },
        configPath: nil)
    }
  }

  @Test func aURLThatCannotNameTheCurrency_isRefusedWithWhy() {
    #expect {
      try ResolvedOptions.resolve(
        commandLine: [
          "currency": "EUR", "sources": "binance", "binance-url": "http://127.0.0.1:9/p",
        ],
        environment: environment, configPath: nil)
    } throws: { error in
      "\(error)" == "the binance URL has no symbol= to set the currency in."
    }
  }

  @Test func theStateFiles_liveSideBySide_andTheCacheIsPerCurrency() throws {
    let options = try ResolvedOptions.resolve(
      commandLine: ["currency": "EUR"], environment: environment, configPath: nil)

    let limits = try #require(options.limitStore?.fileURL)
    #expect(
      options.alertStore?.fileURL
        == limits.deletingLastPathComponent().appendingPathComponent("alerts.json"))
    #expect(options.store?.fileURL.path == "/nonexistent-home/.cache/btc-price/last-price-eur.json")
    #expect(
      try ResolvedOptions.resolve(
        commandLine: [:], environment: environment, configPath: nil, noCache: true
      ).store == nil)
  }

  /// Set, the XDG variables win on every system, a Mac's Application Support included: the tests
  /// and the binaries they start never touch the real user's bans and alerts (issue 49).
  @Test func theStateAndTheCache_goWhereTheXDGVariablesSay_onEverySystem() throws {
    let options = try ResolvedOptions.resolve(
      commandLine: [:],
      environment: ["HOME": "/nonexistent-home", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/c"],
      configPath: nil)

    #expect(options.limitStore?.fileURL.path == "/s/btc-price/limits.json")
    #expect(options.alertStore?.fileURL.path == "/s/btc-price/alerts.json")
    #expect(options.store?.fileURL.path == "/c/btc-price/last-price.json")
  }

  @Test func theChain_leavesOutWhatTheCurrencyHasNoMarketFor() throws {
    let options = try ResolvedOptions.resolve(
      commandLine: ["currency": "JPY"], environment: environment, configPath: nil)

    #expect(options.configuration.sources.allSatisfy { $0.markets[.jpy] != nil })
    #expect(!options.leftOut.isEmpty)
    #expect(options.leftOut.allSatisfy { $0.markets[.jpy] == nil })
  }

  /// `--proxy` and `--no-proxy` reach the chooser over the environment's variables; without
  /// them, the environment's are read.
  @Test func proxyOptions_winOverTheEnvironmentsVariables() throws {
    let binance = URL(string: "https://api.binance.com/api/v3/ticker/price")!
    let kraken = URL(string: "https://api.kraken.com/0/public/Ticker")!
    let variables = environment.merging(["https_proxy": "http://env:1", "no_proxy": "kraken.com"]) {
      $1
    }
    let fromVariables = try ResolvedOptions.resolve(
      commandLine: [:], environment: variables, configPath: nil, noCache: true
    ).proxies
    #expect(fromVariables.explain(for: binance) == "through http://env:1 (from $https_proxy)")
    #expect(fromVariables.explain(for: kraken) == "direct (no-proxy lists it)")

    let fromOptions = try ResolvedOptions.resolve(
      commandLine: ["proxy": "http://cli:2", "no-proxy": "binance.com"], environment: variables,
      configPath: nil, noCache: true
    ).proxies
    #expect(fromOptions.explain(for: binance) == "direct (no-proxy lists it)")
    #expect(fromOptions.explain(for: kraken) == "through http://cli:2 (from the proxy setting)")
  }
}
