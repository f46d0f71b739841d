extension Settings {
  /// Every layer read and merged, the first that gives a value winning: the command line's
  /// options (by name without the dashes, as ``fromCommandLine(_:home:)`` takes them), then the
  /// environment, then the settings file at `configPath` (or its default place, when there is
  /// one). What no layer sets stays nil; the `effective…` values add the defaults.
  ///
  /// - Throws: the first bad value, naming where it came from.
  public static func load(
    commandLine options: [String: String], environment: [String: String], configPath: String?
  ) throws(SettingsError) -> Settings {
    try loadLayers(commandLine: options, environment: environment, configPath: configPath).merged
  }

  /// The same layers, each read and checked, kept apart: for where each value came from.
  public static func loadLayers(
    commandLine options: [String: String], environment: [String: String], configPath: String?
  ) throws(SettingsError) -> SettingsLayers {
    let home = environment["HOME"]
    let commandLine = try fromCommandLine(options, home: home)
    let fromEnvironment = try fromEnvironment(environment)
    var file = Settings()
    if let path = configPath ?? SettingsFile.defaultPath(environment: environment) {
      file = try SettingsFile(path: path).load(home: home)
    }
    return SettingsLayers(commandLine: commandLine, environment: fromEnvironment, file: file)
  }
}
