import ArgumentParser
import BTCPriceCommandLine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The options that shape the price pipeline: which sources, where, in which currency, how often,
/// and the cache. Each can also come from the environment or the settings file; the command line
/// wins, then the environment, then the file, then the defaults. All three layers go through the
/// same checks (`BTCPriceSettings`), so a value is refused the same way wherever it came from.
struct PipelineOptions: ParsableArguments {
  @OptionGroup var settingOptions: SettingOptions<PipelineSettings>

  @Flag(name: .customLong("no-cache"), help: "Neither read nor write the cache file.")
  var noCache = false

  @Option(
    help: ArgumentHelp(
      "Settings file (default: $XDG_CONFIG_HOME/btc-price/config).", valueName: "file"))
  var config: String?

  @OptionGroup var alertOptions: SettingOptions<AlertSettings>

  @Flag(
    help: "Show a desktop notification for each alert (notify-send on Linux, osascript on macOS).")
  var notify = false

  @Flag(
    name: [.customShort("v"), .long],
    help: ArgumentHelp(
      "Log every source attempt, its latency and outcome, and circuit changes to stderr."))
  var verbose = false

  /// `--on-alert`'s command, if given.
  var onAlert: String? { alertOptions.given["on-alert"] }

  /// Whether `--holdings` or `--cost-basis` was given on the command line (the environment's
  /// and the settings file's are the terminal's, and other commands leave them unread).
  var givesHoldings: Bool {
    settingOptions.given["holdings"] != nil || settingOptions.given["cost-basis"] != nil
  }

  func validate() throws {
    if let problem = RootArguments.pipelineProblem(
      noCache: noCache, cachePath: settings["cache-path"])
    {
      throw ValidationError(problem)
    }
  }

  /// The settings these options give, by settings key: the command line's layer.
  var settings: [String: String] {
    settingOptions.given.merging(alertOptions.given) { first, _ in first }
  }

  /// Every layer merged: these options (and `--format`, which the command owns), the
  /// environment, the settings file.
  ///
  /// - Throws: `ValidationError` naming where a bad value came from (an option, a variable, or
  ///   the file and its line), for exit status 64.
  func resolved(environment: [String: String], format: String?, alertWebhook: String? = nil)
    throws -> ResolvedOptions
  {
    try Self.resolve(
      settings: settings, format: format, alertWebhook: alertWebhook, config: config,
      noCache: noCache, notify: notify, verbose: verbose, environment: environment)
  }

  /// Every layer merged, from the command line's settings however they were read (by
  /// ArgumentParser, or by ``RootArguments/read(_:)``).
  static func resolve(
    settings: [String: String], format: String?, alertWebhook: String? = nil, config: String?,
    noCache: Bool, notify: Bool, verbose: Bool, environment: [String: String]
  ) throws -> ResolvedOptions {
    var given = settings
    given["format"] = format
    given["alert-webhook"] = alertWebhook
    do {
      return try ResolvedOptions.resolve(
        commandLine: given, environment: environment, configPath: config, noCache: noCache,
        notify: notify, verbose: verbose)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
