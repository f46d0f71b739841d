extension Settings {
  /// The settings the environment gives: `BTC_PRICE_SOURCES`, `BTC_PRICE_CURRENCY`,
  /// `BTC_PRICE_<SOURCE>_URL` and `CRYPTOCOMPARE_API_KEY`. An empty variable is unset, as a
  /// missing one.
  public static func fromEnvironment(
    _ environment: [String: String], sourceIDs: [String] = SettingsFile.defaultSourceIDs
  ) throws(SettingsError) -> Settings {
    var settings = Settings()
    for key in SettingKey.all(sourceIDs: sourceIDs) {
      guard let variable = environmentVariable(for: key),
        let text = environment[variable], !text.isEmpty
      else { continue }
      do {
        try key.apply(text, to: &settings, sourceIDs: sourceIDs, home: environment["HOME"])
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
    case .url(let sourceID): "BTC_PRICE_\(sourceID.uppercased())_URL"
    case .cryptoCompareAPIKey: "CRYPTOCOMPARE_API_KEY"
    case .interval, .primaryTimeout, .format, .cachePath: nil
    }
  }
}
