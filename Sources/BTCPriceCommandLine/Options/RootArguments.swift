import BTCPriceSettings
import BTCPriceSources

/// What the root command (`btc-price [options]`, the price lines) was given, as plain values.
///
/// Two readers make one: ArgumentParser's (the executable's `BTCPriceCommand`), which knows every
/// spelling, `--help`, the subcommands and every error message; and ``read(_:)``, which reads
/// the plain command lines status bars and scripts run every few seconds without ArgumentParser's
/// reflection (most of a one-shot's start-up: docs/PERFORMANCE.md, "The one-shot"). Whatever the
/// quick reader is not sure of, it leaves to ArgumentParser, and `QuickArgumentsAgreementTests`
/// checks that every command line it reads, ArgumentParser reads the same.
public struct RootArguments: Equatable, Sendable {
  /// The settings given as options, by settings key (`sources`, `binance-url`, `stream` as
  /// `true` or `false`, `alert` as the rules joined by commas): the command line's layer of the
  /// settings, without `format`, which the command owns.
  public var settings: [String: String] = [:]
  public var config: String?
  public var noCache = false
  public var notify = false
  public var verbose = false
  public var count: Int?
  public var once = false
  public var json = false
  public var live = false
  public var waybar = false
  public var format: String?
  public var maxAge: Double?

  public init() {}

  /// Why the pipeline's options cannot go together; nil when they can.
  public static func pipelineProblem(noCache: Bool, cachePath: String?) -> String? {
    noCache && cachePath != nil ? "--no-cache and --cache-path exclude each other." : nil
  }

  /// Why the price lines' own options cannot go together; nil when they can.
  public var commandProblem: String? {
    if let count, count < 1 { return "--count must be at least 1." }
    if once, let count, count != 1 { return "--once and --count \(count) disagree." }
    let outputs = [("--json", json), ("--live", live), ("--waybar", waybar)].filter(\.1)
    if outputs.count > 1 {
      return "\(outputs.map(\.0).joined(separator: " and ")) exclude each other."
    }
    if format != nil, json || live {
      return "--format shapes plain lines and --waybar text, not --json or --live."
    }
    if let maxAge {
      guard maxAge.isFinite, maxAge > 0, maxAge <= 86_400 else {
        return "--max-age must be between 0 and 86400 seconds."
      }
      guard once || count == 1 else { return "--max-age needs --once." }
      guard !noCache else { return "--max-age reads the cache; it cannot go with --no-cache." }
    }
    return nil
  }

  /// The arguments of a plain command line (`--once --json`, `--once --max-age 10 --format
  /// '{arrow} {price}'`), read without ArgumentParser; nil for anything else, which
  /// ArgumentParser then reads (and refuses, with its usage text, where it must).
  ///
  /// Read here: the root command's long options as `--name value` or `--name=value`, its flags,
  /// `-v`, and `--alert` repeated. Left to ArgumentParser: a subcommand or any other word, `-h`,
  /// `--help`, `--version`, completion requests, an unknown option, a value that is missing,
  /// empty or starting with `-`, an option given twice, a number that does not read, and
  /// options that cannot go together.
  ///
  /// An array, not any collection of strings: the executable is another module, where a generic
  /// reader would run unspecialized and look up its iterator's witnesses at run time.
  public static func read(_ argv: [String]) -> RootArguments? {
    var arguments = RootArguments()
    var seen: Set<String> = []
    var alerts: [String] = []
    var words = argv.makeIterator()
    while let word = words.next() {
      let name: String
      var value: String?
      if word == "-v" {
        name = "verbose"
      } else if word.hasPrefix("--"), word.count > 2 {
        let body = word.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          value = String(body[body.index(after: equals)...])
        } else {
          name = String(body)
        }
      } else {
        return nil
      }
      guard let option = Self.options[name] else { return nil }
      // `--stream` and `--no-stream` are one setting: either twice is ArgumentParser's to judge.
      guard seen.insert(option.setting).inserted || option.kind == .repeated else { return nil }
      switch option.kind {
      case .flag:
        guard value == nil else { return nil }
        arguments.set(flag: name)
      case .valued, .repeated:
        if value == nil { value = words.next() }
        guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
        if option.kind == .repeated {
          alerts.append(value)
        } else {
          guard arguments.set(name, to: value) else { return nil }
        }
      }
    }
    if !alerts.isEmpty { arguments.settings["alert"] = alerts.joined(separator: ",") }
    let problem =
      Self.pipelineProblem(noCache: arguments.noCache, cachePath: arguments.settings["cache-path"])
      ?? arguments.commandProblem
    return problem == nil ? arguments : nil
  }

  /// The long names ``read(_:)`` knows, without their dashes.
  public static var optionNames: Set<String> { Set(options.keys) }

  private struct Option {
    enum Kind { case flag, valued, repeated }
    let kind: Kind
    /// What a second one would set again (`stream` for `--no-stream`).
    let setting: String
  }

  /// Every option the quick reader knows, by long name (`-v` as `verbose`): the settings' (each
  /// key says how the root command takes it) and the command's own.
  private static let options: [String: Option] = {
    var options: [String: Option] = [:]
    options.reserveCapacity(64)
    for (name, option) in Settings.rootOptionList {
      switch option.form {
      case .value: options[name] = Option(kind: .valued, setting: name)
      case .negatableFlag:
        options[name] = Option(kind: .flag, setting: name)
        options["no-" + name] = Option(kind: .flag, setting: name)
      case .repeatable: options[name] = Option(kind: .repeated, setting: name)
      }
    }
    for name in ["once", "json", "live", "waybar", "no-cache", "notify", "verbose"] {
      options[name] = Option(kind: .flag, setting: name)
    }
    for name in ["config", "count", "format", "max-age"] {
      options[name] = Option(kind: .valued, setting: name)
    }
    return options
  }()

  private mutating func set(flag name: String) {
    switch name {
    case "once": once = true
    case "json": json = true
    case "live": live = true
    case "waybar": waybar = true
    case "no-cache": noCache = true
    case "notify": notify = true
    case "verbose": verbose = true
    case "stream", "history": settings[name] = "true"
    default: settings[String(name.dropFirst(3))] = "false"  // no-stream, no-history
    }
  }

  /// Sets a valued option; false for a number that does not read.
  private mutating func set(_ name: String, to value: String) -> Bool {
    switch name {
    case "config": config = value
    case "format": format = value
    case "count":
      guard let number = Int(value) else { return false }
      count = number
    case "max-age":
      guard let number = Double(value) else { return false }
      maxAge = number
    default: settings[name] = value
    }
    return true
  }
}
