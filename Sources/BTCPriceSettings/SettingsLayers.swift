/// The three layers a run's settings come from, kept apart so that each value can say where it
/// came from (`doctor`): the command line, the environment, the settings file.
public struct SettingsLayers: Equatable, Sendable {
  public let commandLine: Settings
  public let environment: Settings
  public let file: Settings

  public init(commandLine: Settings, environment: Settings, file: Settings) {
    self.commandLine = commandLine
    self.environment = environment
    self.file = file
  }

  /// Every value from the first layer that gives it (``Settings/layered(commandLine:environment:file:)``).
  public var merged: Settings {
    Settings.layered(commandLine: commandLine, environment: environment, file: file)
  }

  /// Where the value of the setting named `name` (`interval`, `kraken-url`) comes from: the
  /// first layer that gives it, else its default.
  public func origin(of name: String) -> SettingOrigin {
    guard let key = SettingKey.named(name) else { return .default }
    if key.isSet(in: commandLine) { return .commandLine }
    if key.isSet(in: environment), let variable = key.environmentVariable {
      return .environment(variable: variable)
    }
    if key.isSet(in: file) { return .settingsFile }
    return .default
  }
}
