import BTCPriceCore
import BTCPriceFeature
import BTCPriceSettings
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Load settings from the settings file", .hangLimit(.seconds(30)))
struct LoadSettingsFileUseCaseTests {
  @Test func load_readsEveryKeyOfAValidFile() throws {
    try withFile(
      """
      # btc-price settings
      sources: kraken, coinbase
      currency: eur
      interval: 5
      primary-timeout: 0.5
      format: "{arrow} {price}{stale}"
      kraken-url: http://127.0.0.1:8080/0/public/Ticker?pair=XBTUSD
      cryptocompare-api-key: s3cr3t-key
      cache-path: ~/.cache/btc-price/eur.json
      """
    ) { file in
      let settings = try file.load(home: "/home/ana")

      #expect(settings.sources == ["kraken", "coinbase"])
      #expect(settings.currency == .eur)
      #expect(settings.interval == 5)
      #expect(settings.primaryTimeout == 0.5)
      #expect(settings.format == (try PriceTemplate("{arrow} {price}{stale}")))
      #expect(
        settings.urls == [
          "kraken": URL(string: "http://127.0.0.1:8080/0/public/Ticker?pair=XBTUSD")!
        ])
      #expect(settings.apiKeys["cryptocompare"]?.value == "s3cr3t-key")
      #expect(settings.cachePath == "/home/ana/.cache/btc-price/eur.json")
    }
  }

  @Test(arguments: [("0.01", 0.01), ("86400", 86_400)])
  func load_acceptsAnIntervalAtEitherEndOfItsRange(text: String, seconds: Double) throws {
    try withFile("interval: \(text)\n") { file in
      let settings = try file.load(home: nil)
      #expect(settings.interval == seconds)
    }
  }

  @Test func load_acceptsSourcesAsAYAMLList() throws {
    try withFile("sources:\n  - bitstamp\n  - Kraken\n") { file in
      let settings = try file.load(home: nil)
      #expect(settings.sources == ["bitstamp", "kraken"])
    }
  }

  @Test func load_givesNoSettingsWithoutAFile() throws {
    let file = SettingsFile(path: "/nonexistent-\(UUID().uuidString)/btc-price/config")

    #expect(try file.load(home: nil) == Settings())
  }

  @Test(arguments: ["", "\n", "# only a comment\n", "---\n"])
  func load_givesNoSettingsForAnEmptyFile(text: String) throws {
    try withFile(text) { file in
      let settings = try file.load(home: nil)
      #expect(settings == Settings())
    }
  }

  // MARK: Errors name the file, the line and the key

  @Test func load_refusesAnUnknownKeyOnItsLine() throws {
    try withFile("currency: EUR\n\nintervall: 5\n") { file in
      expectError(
        file,
        "\(file.path):3: unknown key \"intervall\"; known keys: sources, currency, interval, "
          + "primary-timeout, format, \(urlKeys), \(apiKeyKeys), cache-path, proxy, no-proxy, "
          + "ca-file, alert, on-alert, alert-webhook, stream, \(streamURLKeys), history, "
          + candlesURLKeys + ", holdings, cost-basis")
    }
  }

  @Test(
    arguments: [
      (
        "currency: EUR\ninterval: fast\n", 2,
        #"interval: must be a number of seconds from 0.01 to 86400, got "fast""#
      ),
      ("interval: 0\n", 1, #"interval: must be a number of seconds from 0.01 to 86400, got "0""#),
      (
        "interval: 0.009\n", 1,
        #"interval: must be a number of seconds from 0.01 to 86400, got "0.009""#
      ),
      (
        "interval: 86400.001\n", 1,
        #"interval: must be a number of seconds from 0.01 to 86400, got "86400.001""#
      ),

      (
        "primary-timeout: -1\n", 1,
        #"primary-timeout: must be a positive number of seconds up to 86400, got "-1""#
      ),
      (
        "\n\ncurrency: XBT\n", 3,
        #"currency: unknown currency "XBT"; supported: USD, EUR, GBP, JPY, CAD, AUD, CHF"#
      ),
      (
        "sources: binance, ftx\n", 1,
        #"sources: unknown source "ftx"; known sources: \#(knownSources)."#
      ),
      ("sources: kraken,kraken\n", 1, "sources: kraken is listed twice."),
      (
        "kraken-url: ftp://example.com/x\n", 1,
        #"kraken-url: needs an http or https URL, got "ftp://example.com/x""#
      ),
      (
        "format: \"{prize}\"\n", 1,
        "format: unknown placeholder {prize} at column 1; known placeholders: {price}, {amount}, {currency}, {time}, {source}, {arrow}, {change}, {change_pct}, {change_24h}, {change_24h_pct}, {stale}, {alert}, {price_int}, {price_short}, {sats}, {change_1h}, {change_1h_pct}, {change_7d}, {change_7d_pct}, {change_30d}, {change_30d_pct}, {value}, {value_change_24h}, {pnl}, {pnl_pct}; write {{ and }} for literal braces"
      ),
      (
        "format: {price}\n", 1,
        #"format: must be text; put it in quotes, as in format: "{price}" (a bare { starts a YAML mapping)"#
      ),
      ("interval:\n  - 1\n  - 2\n", 1, "interval: must be a single value"),
      ("cache-path: \"\"\n", 1, "cache-path: must not be empty"),
      ("currency: EUR\ninterval: 5\ninterval: 6\n", 3, "interval: is set twice (first on line 2)"),
      ("interval:\n  seconds: 5\n", 1, "interval: must be a single value"),
      (
        "format: &anchor \"{price}\"\n", 1,
        "a value that starts with & is more YAML than a setting takes; quote it"
      ),
      ("format: \"{price}\n", 1, "a quoted value must end with its quote on its line"),
      ("\tinterval: 5\n", 1, "a tab before the text (indent with spaces)"),
    ])
  func load_refusesABadValueNamingFileLineAndKey(text: String, line: Int, message: String) throws {
    try withFile(text) { file in
      expectError(file, "\(file.path):\(line): \(message)")
    }
  }

  @Test func load_refusesTextThatIsNotSettingsWithItsLine() throws {
    try withFile("currency: EUR\ninterval: [5\n") { file in
      expectError(file, "\(file.path):2: a list in brackets must close on its line")
    }
  }

  @Test func load_readsQuotesCommentsAndListsAsYAMLDoes() throws {
    try withFile(
      """
      ---
      # everything a hand-written file uses
      format: '{price} isn''t {stale}'   # single quotes
      currency: "E\\u0055R"              # double quotes, with an escape
      sources: [kraken, "coinbase"]     # a list in brackets
      kraken-url: http://127.0.0.1:8080/0/public/Ticker?pair=XBTUSD#not-a-comment
      ...
      """
    ) { file in
      let settings = try file.load(home: nil)

      #expect(settings.format == (try PriceTemplate("{price} isn't {stale}")))
      #expect(settings.currency == .eur)
      #expect(settings.sources == ["kraken", "coinbase"])
      #expect(
        settings.urls["kraken"]?.absoluteString
          == "http://127.0.0.1:8080/0/public/Ticker?pair=XBTUSD#not-a-comment")
    }
  }

  @Test func load_refusesAFileThatIsNotAMapping() throws {
    try withFile("- currency\n- EUR\n") { file in
      expectError(file, "\(file.path):1: must hold `key: value` lines")
    }
  }

  @Test func load_refusesAFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "btc-price-settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = SettingsFile(path: folder.path)

    expectError(file, "\(folder.path): cannot be read: Is a directory")
  }

  @Test func load_refusesTextThatIsNotUTF8() throws {
    try withData(Data([0x63, 0x75, 0xFF, 0xFE, 0x0A])) { file in
      expectError(file, "\(file.path): is not UTF-8 text")
    }
  }

  // MARK: Secrets

  @Test func errorsAndDescriptionsNeverShowTheAPIKey() throws {
    let key = "TOPSECRET-1234"
    let texts = [
      "cryptocompare-api-key: \(key)\ninterval: x\n",
      "cryptocompare-api-key: [\(key)\n",
      "cryptocompare-api-key: \"\(key)\n",
      "cryptocompare-api-key:\n  \(key): 1\n",
      "cryptocompare-apikey: \(key)\n",
      "cryptocompare-api-key: \(key)\ncryptocompare-api-key: \(key)\n",
    ]
    for text in texts {
      try withFile(text) { file in
        do {
          _ = try file.load(home: nil)
          Issue.record("expected an error for \(text.debugDescription)")
        } catch {
          #expect(!String(describing: error).contains(key), "\(error)")
          #expect(!String(reflecting: error).contains(key))
        }
      }
    }
    try withFile("cryptocompare-api-key: \(key)\n") { file in
      let settings = try file.load(home: nil)
      #expect(!settings.description.contains(key))
      #expect(!"\(settings)".contains(key))
      #expect(!String(reflecting: settings).contains(key))
      var dumped = ""
      dump(settings, to: &dumped)
      #expect(!dumped.contains(key))
      #expect(settings.description == "cryptocompare-api-key: <redacted>")
    }
  }

  @Test func load_readsTheHoldings_andNeverShowsThem() throws {
    try withFile("holdings: 0.25\ncost-basis: 15000 usd\n") { file in
      let settings = try file.load(home: nil)
      #expect(settings.holdings == Decimal(string: "0.25"))
      #expect(settings.costBasis == .init(total: 15_000, currency: .usd))
      #expect(settings.description == "holdings: <redacted>\ncost-basis: <redacted>")
    }
  }

  @Test func load_readsTheProxyKeysAndNeverShowsTheProxyPassword() throws {
    try withFile("proxy: http://ana:pw-1234@proxy.corp:3128\nno-proxy: .corp\nca-file: ~/ca.pem\n")
    {
      file in
      let settings = try file.load(home: "/home/ana")
      #expect(settings.proxy?.value == "http://ana:pw-1234@proxy.corp:3128")
      #expect(settings.noProxy == ".corp")
      #expect(settings.caFile == "/home/ana/ca.pem")
      #expect(
        settings.description
          == "proxy: http://***@proxy.corp:3128\nno-proxy: .corp\nca-file: /home/ana/ca.pem")
    }
    try withFile("proxy: gopher://ana:pw-1234@p\n") { file in
      #expect {
        try file.load(home: nil)
      } throws: { error in
        !String(describing: error).contains("pw-1234")
          && String(describing: error).contains("scheme")
      }
    }
  }

  // MARK: Where the file is

  @Test func defaultPath_followsXDGConfigHome() {
    #expect(
      SettingsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/ana"])
        == "/x/conf/btc-price/config")
    #expect(
      SettingsFile.defaultPath(environment: ["HOME": "/home/ana"])
        == "/home/ana/.config/btc-price/config")
    // The XDG spec ignores a relative XDG_CONFIG_HOME.
    #expect(
      SettingsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "conf", "HOME": "/home/ana/"])
        == "/home/ana/.config/btc-price/config")
    #expect(SettingsFile.defaultPath(environment: [:]) == nil)
  }

  @Test func defaultPath_isTheUnitsConfigurationDirectoryFirst() {
    // The packaged units' ConfigurationDirectory=btc-price: /etc/btc-price/config, the conffile.
    #expect(
      SettingsFile.defaultPath(environment: [
        "CONFIGURATION_DIRECTORY": "/etc/btc-price", "XDG_CONFIG_HOME": "/x", "HOME": "/h",
      ]) == "/etc/btc-price/config")
    #expect(SettingsFile.defaultPath(environment: ["CONFIGURATION_DIRECTORY": "/"]) == "/config")
  }

  // MARK: Helpers

  private func withFile(_ text: String, _ body: (SettingsFile) throws -> Void) throws {
    try withData(Data(text.utf8), body)
  }

  private func withData(_ data: Data, _ body: (SettingsFile) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "btc-price-settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appending(path: "config")
    try data.write(to: url)
    try body(SettingsFile(path: url.path))
  }

  private func expectError(
    _ file: SettingsFile, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      try file.load(home: nil)
    } throws: { error in
      let description = (error as? SettingsError)?.description
      if description != message { print("got: \(description ?? "\(error)")") }
      return description == message
    }
  }
}

@Suite("Layer command line, environment, file and defaults", .hangLimit(.seconds(30)))
struct LayerSettingsUseCaseTests {
  @Test func resolve_takesTheFirstLayerThatGivesAValue() {
    #expect(Settings.resolve(commandLine: 1, environment: 2, file: 3, default: 4) == 1)
    #expect(Settings.resolve(commandLine: nil, environment: 2, file: 3, default: 4) == 2)
    #expect(Settings.resolve(commandLine: nil, environment: nil, file: 3, default: 4) == 3)
    #expect(
      Settings.resolve(commandLine: nil as Int?, environment: nil, file: nil, default: 4) == 4)
  }

  @Test func layered_mergesWholeLayersValueByValue() {
    let commandLine = settings {
      $0.currency = .gbp
      $0.urls = ["kraken": URL(string: "http://cli/k")!]
    }
    let environment = settings {
      $0.sources = ["kraken"]
      $0.currency = .eur
      $0.urls = ["kraken": URL(string: "http://env/k")!, "coinbase": URL(string: "http://env/c")!]
    }
    let file = settings {
      $0.sources = ["coinbase"]
      $0.currency = .jpy
      $0.interval = 5
      $0.urls = ["bitstamp": URL(string: "http://file/b")!]
      $0.apiKeys = ["cryptocompare": Secret("k")]
    }

    let merged = Settings.layered(commandLine: commandLine, environment: environment, file: file)

    #expect(
      merged
        == settings {
          $0.sources = ["kraken"]
          $0.currency = .gbp
          $0.interval = 5
          $0.urls = [
            "kraken": URL(string: "http://cli/k")!, "coinbase": URL(string: "http://env/c")!,
            "bitstamp": URL(string: "http://file/b")!,
          ]
          $0.apiKeys = ["cryptocompare": Secret("k")]
        })
  }

  @Test func fromEnvironment_readsTheVariablesAndIgnoresEmptyOnes() throws {
    let settings = try Settings.fromEnvironment([
      "BTC_PRICE_CURRENCY": "jpy", "BTC_PRICE_SOURCES": "kraken,binance",
      "BTC_PRICE_KRAKEN_URL": "http://127.0.0.1:1/0/public/Ticker?pair=XBTUSD",
      "BTC_PRICE_BINANCE_URL": "", "CRYPTOCOMPARE_API_KEY": "", "HOME": "/home/ana",
    ])

    #expect(
      settings
        == BTCPriceSettingsTests.settings {
          $0.sources = ["kraken", "binance"]
          $0.currency = .jpy
          $0.urls = ["kraken": URL(string: "http://127.0.0.1:1/0/public/Ticker?pair=XBTUSD")!]
        })
  }

  @Test func fromEnvironment_namesTheVariableOfABadValue() {
    #expect {
      try Settings.fromEnvironment(["BTC_PRICE_CURRENCY": "peso"])
    } throws: { error in
      (error as? SettingsError)?.description
        == #"BTC_PRICE_CURRENCY: unknown currency "peso"; supported: USD, EUR, GBP, JPY, CAD, AUD, CHF"#
    }
  }

  @Test func layers_fileEnvironmentAndCommandLineInOrder() throws {
    // The whole path a run takes: a file, an environment, flags.
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "btc-price-settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("currency: EUR\ninterval: 5\nsources: bitstamp\n".utf8).write(
      to: folder.appending(path: "config"))
    let file = try SettingsFile(path: folder.appending(path: "config").path).load(home: nil)
    let environment = try Settings.fromEnvironment(["BTC_PRICE_CURRENCY": "GBP"])
    let commandLine = settings { $0.sources = ["kraken"] }

    let merged = Settings.layered(commandLine: commandLine, environment: environment, file: file)

    #expect(merged.currency == .gbp)
    #expect(merged.sources == ["kraken"])
    #expect(merged.interval == 5)
    #expect(
      Settings.resolve(
        commandLine: nil, environment: nil, file: merged.primaryTimeout, default: 0.8) == 0.8)
  }
}

/// The registry's sources, as the settings' error messages list them.
private let knownSources = PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")
private let urlKeys = PriceSourceRegistry.all.map(\.urlOptionName).joined(separator: ", ")
private let candlesURLKeys = PriceSourceRegistry.all.filter { $0.candles != nil }.map(
  \.candlesURLOptionName
)
.joined(separator: ", ")
private let streamURLKeys = PriceSourceRegistry.all.filter { $0.stream != nil }.map(
  \.streamURLOptionName
)
.joined(separator: ", ")
private let apiKeyKeys = PriceSourceRegistry.all.filter { $0.apiKey != nil }
  .map { "\($0.source.id)-api-key" }.joined(separator: ", ")

/// Settings with the values `set` gives, the rest unset.
private func settings(_ set: (inout Settings) -> Void) -> Settings {
  var settings = Settings()
  set(&settings)
  return settings
}
