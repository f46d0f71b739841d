import ArgumentParser
import BTCPriceSettings

/// The root command's options that set a setting, declared from the settings' keys: each key
/// says how the command takes it and what `--help` says (`Settings.rootOptionList`), so a new
/// setting gets its option, its `--help` line, its man page entry and its completions with
/// nothing written here.
///
/// ArgumentParser learns a command's options from what a `Mirror` of it shows, and reads their
/// values back through `Decodable`. Declared properties are what a mirror usually shows; this
/// type shows one `Option` or `Flag` per key instead (`customMirror`) and reads each back by the
/// same key (`init(from:)`), so the options are ArgumentParser's own: the same spellings, the
/// same errors for a missing value. `QuickArgumentsAgreementTests` and
/// `SourceRegistryAgreementTests` fail if an option stops reaching its setting.
struct SettingOptions<Part: SettingOptionsPart>: ParsableArguments, CustomReflectable {
  /// The text given for each setting, by key (`stream` as `true` or `false`, `alert` as the
  /// rules joined by commas): the command line's layer of the settings.
  private(set) var given: [String: String] = [:]

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: OptionKey.self)
    for (name, option) in Part.options {
      let key = OptionKey(name)
      switch option.form {
      case .value:
        given[name] = try container.decode(Option<String?>.self, forKey: key).wrappedValue
      case .negatableFlag:
        given[name] = try container.decode(Flag<Bool?>.self, forKey: key).wrappedValue.map {
          $0 ? "true" : "false"
        }
      case .repeatable:
        let values = try container.decode(Option<[String]>.self, forKey: key).wrappedValue
        given[name] = values.isEmpty ? nil : values.joined(separator: ",")
      }
    }
  }

  var customMirror: Mirror {
    Mirror(
      self,
      children: Part.options.map { (label: $0.name, value: Self.declaration($0.name, $0.option)) })
  }

  /// What a property declared by hand would hold for this option.
  private static func declaration(_ name: String, _ option: SettingOption) -> Any {
    let help = ArgumentHelp(option)
    switch option.form {
    case .value: return Option<String?>(name: .customLong(name), help: help)
    case .negatableFlag:
      return Flag<Bool?>(name: .customLong(name), inversion: .prefixedNo, help: help)
    case .repeatable: return Option<[String]>(wrappedValue: [], name: .customLong(name), help: help)
    }
  }

  /// An option's key: its long name, which is unique on the command line.
  private struct OptionKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

/// Which of the settings' options a ``SettingOptions`` declares, in `--help`'s order.
protocol SettingOptionsPart {
  static var options: [(name: String, option: SettingOption)] { get }
}

/// Every setting's option but the alerts' and `--format` (the command's own, beside the output
/// modes it shapes): the pipeline's, in the order `--help` has always listed them; a key it does
/// not place comes last.
enum PipelineSettings: SettingOptionsPart {
  static var options: [(name: String, option: SettingOption)] {
    let excluded = Set(AlertSettings.names + ["format"])
    let all = Settings.rootOptionList.filter { !excluded.contains($0.name) }
    func rank(_ name: String) -> Int {
      let leading = ["interval", "primary-timeout", "sources", "currency"]
      let trailing = ["cache-path", "proxy", "no-proxy", "ca-file"]
      if let index = leading.firstIndex(of: name) { return index }
      if name.hasSuffix("-stream-url") { return 30 }
      if name.hasSuffix("-candles-url") { return 50 }
      if name.hasSuffix("-url") { return 10 }
      if name == "stream" { return 20 }
      if name == "history" { return 40 }
      if let index = trailing.firstIndex(of: name) { return 60 + index }
      return 100
    }
    // A stable sort: each family keeps the registry's order.
    return all.enumerated().sorted {
      (rank($0.element.name), $0.offset) < (rank($1.element.name), $1.offset)
    }
    .map(\.element)
  }
}

/// `--alert` and `--on-alert`, which `--help` lists with `--notify`.
enum AlertSettings: SettingOptionsPart {
  static let names = ["alert", "on-alert"]

  static var options: [(name: String, option: SettingOption)] {
    Settings.rootOptionList.filter { names.contains($0.name) }
  }
}

extension ArgumentHelp {
  /// A setting's `--help`, as its key words it.
  init(_ option: SettingOption) {
    self.init(
      option.help, discussion: option.discussion,
      valueName: option.valueName.isEmpty ? nil : option.valueName)
  }

  /// The `--help` of the setting `name`'s option (`format`), for an option a command declares
  /// itself.
  init(setting name: String) {
    guard let option = Settings.rootOptionList.first(where: { $0.name == name })?.option else {
      preconditionFailure("no setting's option is named \(name)")
    }
    self.init(option)
  }
}
