import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceSettings

/// Every key, every layer: the command line beats the environment, which beats the settings
/// file, which beats the default. Precedence was tested for a few keys only, so the file could
/// beat `--interval` with every test green.
@Suite("Take each setting from the first layer that gives it", .hangLimit(.seconds(30)))
struct LayerEveryKeyUseCaseTests {
  /// One key: a valid text for each layer, how to read the merged value, and its default.
  struct Key: CustomTestStringConvertible, Sendable {
    let name: String
    /// nil for the keys the environment cannot set.
    let variable: String?
    let commandLine: String
    let environment: String
    let file: String
    let defaultValue: String?
    let read: @Sendable (Settings) -> String?
    var testDescription: String { name }
  }

  static let keys: [Key] =
    [
      Key(
        name: "sources", variable: "BTC_PRICE_SOURCES", commandLine: "kraken",
        environment: "coinbase", file: "bitstamp", defaultValue: nil,
        read: { $0.sources?.joined(separator: ",") }),
      Key(
        name: "currency", variable: "BTC_PRICE_CURRENCY", commandLine: "EUR",
        environment: "GBP", file: "JPY", defaultValue: "USD",
        read: { $0.effectiveCurrency.code }),
      Key(
        name: "interval", variable: nil, commandLine: "2", environment: "", file: "5",
        defaultValue: PriceDefaults.interval.secondsText,
        read: { $0.effectiveInterval.secondsText }),
      Key(
        name: "primary-timeout", variable: nil, commandLine: "0.5", environment: "",
        file: "0.7", defaultValue: "0.8", read: { $0.effectivePrimaryTimeout.secondsText }),
      Key(
        name: "format", variable: nil, commandLine: "cli {price}", environment: "",
        file: "file {price}", defaultValue: nil, read: { $0.format?.text }),
    ]
    + PriceSourceRegistry.all.map { definition in
      let id = definition.source.id
      return Key(
        name: "\(id)-url", variable: definition.urlEnvironmentVariable,
        commandLine: "http://cli.example/\(id)", environment: "http://env.example/\(id)",
        file: "http://file.example/\(id)", defaultValue: nil,
        read: { $0.urls[id]?.absoluteString })
    }
    + PriceSourceRegistry.all.compactMap { definition in
      guard let apiKey = definition.apiKey else { return nil }
      let id = definition.source.id
      return Key(
        name: "\(id)-api-key", variable: apiKey.environmentVariable, commandLine: "key-cli",
        environment: "key-env", file: "key-file", defaultValue: nil,
        read: { $0.apiKeys[id]?.value })
    }
    + [
      Key(
        name: "cache-path", variable: nil, commandLine: "/cli/last.json", environment: "",
        file: "/file/last.json", defaultValue: nil, read: { $0.cachePath }),
      // The proxy's own environment (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE, …) is curl's and
      // OpenSSL's, read by ProxySelector and TrustSource under these keys, not a settings layer.
      Key(
        name: "proxy", variable: nil, commandLine: "http://cli.example:3128", environment: "",
        file: "http://file.example:3128", defaultValue: nil, read: { $0.proxy?.value }),
      Key(
        name: "no-proxy", variable: nil, commandLine: "cli.example", environment: "",
        file: "file.example", defaultValue: nil, read: { $0.noProxy }),
      Key(
        name: "ca-file", variable: nil, commandLine: "/cli/ca.pem", environment: "",
        file: "/file/ca.pem", defaultValue: nil, read: { $0.caFile }),
      Key(
        name: "alert", variable: "BTC_PRICE_ALERTS", commandLine: "above:100000",
        environment: "below:50000", file: "above:90000", defaultValue: nil,
        read: { $0.alerts?.map(\.description).joined(separator: ",") }),
      Key(
        name: "on-alert", variable: "BTC_PRICE_ON_ALERT", commandLine: "echo cli",
        environment: "echo env", file: "echo file", defaultValue: nil, read: { $0.onAlert }),
      Key(
        name: "alert-webhook", variable: "BTC_PRICE_ALERT_WEBHOOK",
        commandLine: "http://cli.example/hook", environment: "http://env.example/hook",
        file: "http://file.example/hook", defaultValue: nil,
        read: { $0.alertWebhook?.absoluteString }),
      Key(
        // On by default: `--no-stream` (false) is what the command line gives.
        name: "stream", variable: "BTC_PRICE_STREAM", commandLine: "false", environment: "true",
        file: "false", defaultValue: "\(PriceDefaults.stream)",
        read: { "\($0.effectiveStream)" }),
    ]
    + PriceSourceRegistry.all.compactMap { definition in
      guard definition.stream != nil else { return nil }
      let id = definition.source.id
      return Key(
        name: "\(id)-stream-url", variable: definition.streamURLEnvironmentVariable,
        commandLine: "ws://cli.example/\(id)", environment: "wss://env.example/\(id)",
        file: "ws://file.example/\(id)", defaultValue: nil,
        read: { $0.streamURLs[id]?.absoluteString })
    }
    + [
      Key(
        // On by default: `--no-history` (false) is what the command line gives.
        name: "history", variable: "BTC_PRICE_HISTORY", commandLine: "false", environment: "true",
        file: "false", defaultValue: "\(PriceDefaults.history)",
        read: { "\($0.effectiveHistory)" })
    ]
    + PriceSourceRegistry.all.compactMap { definition in
      guard definition.candles != nil else { return nil }
      let id = definition.source.id
      return Key(
        name: "\(id)-candles-url", variable: definition.candlesURLEnvironmentVariable,
        commandLine: "http://cli.example/\(id)", environment: "https://env.example/\(id)",
        file: "http://file.example/\(id)", defaultValue: nil,
        read: { $0.candlesURLs[id]?.absoluteString })
    }
    + [
      Key(
        name: "holdings", variable: "BTC_PRICE_HOLDINGS", commandLine: "0.25",
        environment: "1.5", file: "0.00000001", defaultValue: nil,
        read: { $0.holdings.map { "\($0)" } }),
      Key(
        name: "cost-basis", variable: "BTC_PRICE_COST_BASIS", commandLine: "15000 USD",
        environment: "12000.5 EUR", file: "0 JPY", defaultValue: nil,
        read: { $0.costBasis.map { "\($0.total) \($0.currency.code)" } }),
    ]

  @Test func theTable_coversEverySettingKey() {
    #expect(Self.keys.map(\.name) == SettingKey.all.map(\.name))
    for key in SettingKey.all {
      #expect(
        Self.keys.first { $0.name == key.name }?.variable == key.environmentVariable,
        "\(key.name)")
    }
  }

  @Test(arguments: keys)
  func eachKey_comesFromTheFirstLayerThatGivesIt(_ key: Key) throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "btc-price-layers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    for layers in 0..<8 {
      let (byCommandLine, byEnvironment, byFile) = (
        layers & 1 != 0, layers & 2 != 0, layers & 4 != 0
      )
      if byEnvironment, key.variable == nil { continue }
      let config = folder.appending(path: "config-\(layers)")
      let line = byFile ? "\(key.name): \"\(key.file)\"\n" : "# nothing\n"
      try Data(line.utf8).write(to: config)
      let environment = byEnvironment ? [key.variable!: key.environment] : [:]

      let layers = try Settings.loadLayers(
        commandLine: byCommandLine ? [key.name: key.commandLine] : [:],
        environment: environment, configPath: config.path)

      let expected =
        byCommandLine
        ? key.commandLine
        : byEnvironment ? key.environment : byFile ? key.file : key.defaultValue
      let origin: SettingOrigin =
        byCommandLine
        ? .commandLine
        : byEnvironment
          ? .environment(variable: key.variable!) : byFile ? .settingsFile : .default
      let given =
        "\(key.name) with command line \(byCommandLine), environment \(byEnvironment), file \(byFile)"
      #expect(key.read(layers.merged) == expected, "\(given)")
      #expect(layers.origin(of: key.name) == origin, "\(given)")
    }
  }
}
