import Yams

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The settings file: `$XDG_CONFIG_HOME/btc-price/config`, by default
/// `~/.config/btc-price/config`. YAML, one `key: value` per line, keys named like the long options:
///
/// ```yaml
/// currency: EUR
/// sources: kraken, coinbase
/// interval: 5
/// format: "{arrow} {price}"        # quoted: a bare { starts a YAML mapping
/// kraken-url: https://api.kraken.com/0/public/Ticker?pair=XBTUSD
/// cryptocompare-api-key: …          # never printed or logged
/// cache-path: ~/.cache/btc-price/last-price.json
/// ```
///
/// A missing file is no settings. An unknown key, a bad value or bad YAML is an error naming the
/// file, the line and the key.
public struct SettingsFile: Sendable {
  /// Larger than any hand-written settings file; a bigger one is a mistake, not settings.
  public static let maximumSize = 64 * 1024

  public let path: String

  public init(path: String) {
    self.path = path
  }

  /// `$XDG_CONFIG_HOME/btc-price/config` when `XDG_CONFIG_HOME` is an absolute path (the XDG Base
  /// Directory rule), otherwise `$HOME/.config/btc-price/config`; nil with neither.
  public static func defaultPath(environment: [String: String]) -> String? {
    if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
      return (base.hasSuffix("/") ? base : base + "/") + "btc-price/config"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.config/btc-price/config"
  }

  /// The file's settings; none when there is no file.
  ///
  /// - Parameter home: expands a leading `~/` in `cache-path`.
  public func load(home: String?) throws(SettingsError) -> Settings {
    guard let text = try readText() else { return Settings() }
    return try parse(text, home: home)
  }

  /// The settings in `text`, as if read from this file.
  public func parse(_ text: String, home: String?) throws(SettingsError) -> Settings {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text, .basic, .default, .utf8)
    } catch {
      throw yamlError(error)
    }
    // No document, or an empty one (`---` alone): no settings.
    guard let root, root.scalar?.string.isEmpty != true else { return Settings() }
    guard let mapping = root.mapping else {
      throw failure(line: root.mark?.line, key: nil, "must hold `key: value` lines")
    }
    var settings = Settings()
    for (keyNode, valueNode) in mapping {
      let line = keyNode.mark?.line
      guard let name = keyNode.scalar?.string else {
        throw failure(line: line, key: nil, "a key must be a plain name")
      }
      guard let key = SettingKey.named(name) else {
        let known = SettingKey.all.map(\.name).joined(separator: ", ")
        throw failure(
          line: line, key: nil,
          "unknown key \(SettingKey.quoted(name)); known keys: \(known)")
      }
      let text = try self.text(of: valueNode, for: key)
      do {
        try key.apply(text, to: &settings, home: home)
      } catch {
        throw failure(line: valueNode.mark?.line ?? line, key: name, error.message)
      }
    }
    return settings
  }

  /// A scalar's text; `sources` may also be a YAML list.
  private func text(of node: Node, for key: SettingKey) throws(SettingsError) -> String {
    if let scalar = node.scalar { return scalar.string }
    let line = node.mark?.line
    if key == .sources, let items = node.sequence {
      var names: [String] = []
      for item in items {
        guard let name = item.scalar?.string else {
          throw failure(line: item.mark?.line ?? line, key: key.name, "must list source names")
        }
        names.append(name)
      }
      return names.joined(separator: ",")
    }
    if key == .format, node.mapping != nil {
      throw failure(
        line: line, key: key.name,
        "must be text; put it in quotes, as in format: \"{price}\" (a bare { starts a YAML mapping)"
      )
    }
    throw failure(line: line, key: key.name, "must be a single value")
  }

  /// Yams' own descriptions quote the offending line, which may hold the API key; only the line
  /// number and libyaml's problem are kept.
  private func yamlError(_ error: any Error) -> SettingsError {
    switch error as? YamlError {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return failure(line: mark.line, key: nil, "not valid YAML: \(problem)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      // Yams points at the first of the keys; the message names them all.
      return failure(
        line: context.mark.line, key: duplicates.joined(separator: ", "), "is set twice")
    case .reader(let problem, _, _, _):
      return failure(line: nil, key: nil, "not valid YAML text: \(problem)")
    default:
      return failure(line: nil, key: nil, "not valid YAML")
    }
  }

  private func failure(line: Int?, key: String?, _ problem: String) -> SettingsError {
    SettingsError(origin: .file(path: path, line: line), key: key, problem: problem)
  }

  /// The file's text, or nil when there is no file.
  private func readText() throws(SettingsError) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw failure(line: nil, key: nil, "cannot be read: \(String(cString: strerror(code)))")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { break }
      guard count > 0 else {
        let code = errno
        if code == EINTR { continue }
        throw failure(line: nil, key: nil, "cannot be read: \(String(cString: strerror(code)))")
      }
      bytes += chunk[..<count]
      guard bytes.count <= Self.maximumSize else {
        throw failure(line: nil, key: nil, "is larger than \(Self.maximumSize / 1024) KiB")
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw failure(line: nil, key: nil, "is not UTF-8 text")
    }
    return text
  }
}
