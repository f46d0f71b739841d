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
      guard let variable = key.environmentVariable,
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
