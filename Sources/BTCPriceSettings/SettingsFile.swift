import BTCPriceCore
import BTCPriceRuntime
// swift-system: one file API for Linux and Darwin (EINTR retried, errors as `Errno`).
import SystemPackage

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The settings file: `$XDG_CONFIG_HOME/btc-price/config`, by default
/// `~/.config/btc-price/config`. YAML's `key: value` lines (``SettingsText``), keys named like the
/// long options:
///
/// ```yaml
/// currency: EUR
/// sources: kraken, coinbase
/// interval: 5
/// format: "{arrow} {price}"        # quoted: a bare { starts a YAML mapping
/// kraken-url: https://api.kraken.com/0/public/Ticker?pair=XBTUSD
/// cryptocompare-api-key: …          # never printed or logged
/// cache-path: ~/.cache/btc-price/last-price.json
/// alert: [above:100000, move:2%/15m]
/// on-alert: notify-send "BTC $BTC_PRICE_ALERT_RULE"
/// ```
///
/// A missing file is no settings. An unknown key, a bad value or text that is not such lines is an
/// error naming the file, the line and the key.
public struct SettingsFile: Sendable {
  /// Larger than any hand-written settings file; a bigger one is a mistake, not settings.
  public static let maximumSize = 64 * 1024

  public let path: String

  public init(path: String) {
    self.path = path
  }

  /// `$CONFIGURATION_DIRECTORY/config` under a systemd unit's `ConfigurationDirectory=`
  /// (`/etc/btc-price/config` for the packaged units), else `$XDG_CONFIG_HOME/btc-price/config`
  /// when `XDG_CONFIG_HOME` is an absolute path (the XDG Base Directory rule), otherwise
  /// `$HOME/.config/btc-price/config`; nil with none of them.
  public static func defaultPath(environment: [String: String]) -> String? {
    if let folder = ServiceDirectory.configuration.path(in: environment) {
      return (folder == "/" ? "" : folder) + "/config"
    }
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
    let entries: [SettingsText.Entry]
    do {
      entries = try SettingsText.parse(text)
    } catch {
      throw failure(line: error.line, key: nil, error.problem)
    }
    var settings = Settings()
    for entry in entries {
      guard let key = SettingKey.named(entry.key) else {
        let known = SettingKey.all.map(\.name).joined(separator: ", ")
        throw failure(
          line: entry.line, key: nil,
          "unknown key \(SettingKey.quoted(entry.key)); known keys: \(known)")
      }
      let text = try self.text(of: entry, for: key)
      do {
        try key.apply(text, to: &settings, home: home)
      } catch {
        throw failure(line: entry.line, key: entry.key, error.message)
      }
    }
    return settings
  }

  /// A value's text; `sources` and `alert` may also be a list.
  private func text(of entry: SettingsText.Entry, for key: SettingKey) throws(SettingsError)
    -> String
  {
    switch entry.value {
    case .scalar(let text):
      return text
    case .list(let items) where key.takesList:
      return items.joined(separator: ",")
    case .mapping where key.name == SettingKey.format.name:
      throw failure(
        line: entry.line, key: key.name,
        "must be text; put it in quotes, as in format: \"{price}\" (a bare { starts a YAML mapping)"
      )
    case .list, .mapping:
      throw failure(line: entry.line, key: key.name, "must be a single value")
    }
  }

  private func failure(line: Int?, key: String?, _ problem: String) -> SettingsError {
    SettingsError(origin: .file(path: path, line: line), key: key, problem: problem)
  }

  /// The file's text, or nil when there is no file.
  private func readText() throws(SettingsError) -> String? {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
    } catch {
      if let errno = error as? Errno, errno == .noSuchFileOrDirectory || errno == .notDirectory {
        return nil
      }
      throw failure(line: nil, key: nil, "cannot be read: \(error)")
    }
    defer { try? file.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
      } catch {
        throw failure(line: nil, key: nil, "cannot be read: \(error)")
      }
      if count == 0 { break }
      bytes += chunk[..<count]
      guard bytes.count <= Self.maximumSize else {
        throw failure(line: nil, key: nil, "is larger than \(Self.maximumSize / 1024) KiB")
      }
    }
    guard let text = String(strictUTF8: bytes) else {
      throw failure(line: nil, key: nil, "is not UTF-8 text")
    }
    return text
  }
}
