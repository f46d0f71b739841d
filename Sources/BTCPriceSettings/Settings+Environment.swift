import BTCPriceSources

extension Settings {
  /// The settings the environment gives: `BTC_PRICE_SOURCES`, `BTC_PRICE_CURRENCY`,
  /// `BTC_PRICE_<SOURCE>_URL`, `CRYPTOCOMPARE_API_KEY`, `BTC_PRICE_ALERTS` (comma-separated rules)
  /// `BTC_PRICE_ON_ALERT`, `BTC_PRICE_ALERT_WEBHOOK`, `BTC_PRICE_STREAM` and
  /// `BTC_PRICE_<SOURCE>_STREAM_URL`. An empty variable is unset, as a
  /// missing one.
  public static func fromEnvironment(_ environment: [String: String]) throws(SettingsError)
    -> Settings
  {
    var settings = Settings()
    for key in SettingKey.all {
      guard let variable = environmentVariable(for: key),
        let text = environment[variable], !text.isEmpty
      else { continue }
      do {
        try key.apply(text, to: &settings, home: environment["HOME"])
      } catch {
        throw SettingsError(
          origin: .environment(variable: variable), key: nil, problem: error.message)
      }
    }
    return settings
  }

  /// The variable that sets `key`, for the keys the environment can set.
  static func environmentVariable(for key: SettingKey) -> String? {
    switch key {
    case .sources: "BTC_PRICE_SOURCES"
    case .currency: "BTC_PRICE_CURRENCY"
    case .url(let sourceID): PriceSourceRegistry.definition(id: sourceID)?.urlEnvironmentVariable
    case .apiKey(let sourceID):
      PriceSourceRegistry.definition(id: sourceID)?.apiKey?.environmentVariable
    case .alerts: "BTC_PRICE_ALERTS"
    case .onAlert: "BTC_PRICE_ON_ALERT"
    case .alertWebhook: "BTC_PRICE_ALERT_WEBHOOK"
    case .stream: "BTC_PRICE_STREAM"
    case .history: "BTC_PRICE_HISTORY"
    case .streamURL(let sourceID):
      PriceSourceRegistry.definition(id: sourceID).flatMap {
        $0.stream == nil ? nil : $0.streamURLEnvironmentVariable
      }
    case .candlesURL(let sourceID):
      PriceSourceRegistry.definition(id: sourceID).flatMap {
        $0.candles == nil ? nil : $0.candlesURLEnvironmentVariable
      }
    // The proxy's own variables (https_proxy, NO_PROXY, ...) and SSL_CERT_FILE are read as
    // curl and OpenSSL read them, under these settings (ProxySelector, TrustSource).
    case .interval, .primaryTimeout, .format, .cachePath, .proxy, .noProxy, .caFile: nil
    }
  }
}

extension Settings {
  /// The settings the command line gives, by option name without the dashes (`interval`,
  /// `kraken-url`): the same names and checks as the file's keys.
  public static func fromCommandLine(_ options: [String: String], home: String?)
    throws(SettingsError) -> Settings
  {
    var settings = Settings()
    for key in SettingKey.all {
      guard let text = options[key.name] else { continue }
      do {
        try key.apply(text, to: &settings, home: home)
      } catch {
        throw SettingsError(
          origin: .commandLine(option: "--\(key.name)"), key: nil, problem: error.message)
      }
    }
    return settings
  }
}
