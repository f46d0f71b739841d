import BTCPriceCore
import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the last quote in one small JSON file, replaced atomically (``AtomicFile``): a reader, a
/// second instance or the next run after `kill -9` sees the old or the new quote, never a torn one.
///
/// ```json
/// {"version":1,"price":"68901.23","currency":"USD","timestamp":"2026-11-22T14:03:05.123Z","source":"binance"}
/// ```
public struct FilePriceStore: PriceStore {
  public enum Error: Swift.Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
      switch self {
      case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
      case .corrupt(let path, let reason): return "ignoring corrupt cache \(path): \(reason)"
      case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
      }
    }
  }

  public let fileURL: URL
  /// The sources a cached quote may name, so it shows with its display name (`Kraken`, not
  /// `kraken`); an unknown id is shown as it is.
  public let knownSources: [PriceSource]
  /// The currency of the run: a quote in another one is not this run's last value (a run in EUR
  /// never shows a USD price), so it reads as nothing saved.
  public let currency: Currency
  /// A cache file larger than this is not ours.
  static let maxFileSize = 64 * 1024

  public init(fileURL: URL, knownSources: [PriceSource], currency: Currency = .usd) {
    self.fileURL = fileURL
    self.knownSources = knownSources
    self.currency = currency
    file = AtomicFile(url: fileURL, maxSize: Self.maxFileSize)
  }

  /// `$CACHE_DIRECTORY/last-price.json` under a systemd unit's `CacheDirectory=`, else
  /// `$XDG_CACHE_HOME/btc-price/last-price.json`, else `~/.cache/btc-price/last-price.json`;
  /// `last-price-eur.json` and so on for the other currencies, so each keeps its own last value.
  public static func defaultFileURL(environment: [String: String], currency: Currency = .usd)
    -> URL
  {
    let name = currency == .usd ? "last-price" : "last-price-\(currency.code.lowercased())"
    if let folder = ServiceDirectory.cache.path(in: environment) {
      return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("\(name).json")
    }
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      // URL.homeDirectory, not FileManager.homeDirectoryForCurrentUser: the latter is
      // unavailable on iOS, and the app links this target (scripts/check-ios-apis).
      let home =
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? URL.homeDirectory.path
      base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
    }
    return base.appendingPathComponent("btc-price").appendingPathComponent("\(name).json")
  }

  public func load() throws -> PriceQuote? {
    let data: Data
    do {
      guard let read = try file.contents() else { return nil }
      data = read
    } catch {
      throw Error(error, path: fileURL.path)
    }
    do {
      let quote = try CachedQuote.decode(data).quote(knownSources: knownSources)
      return quote.currency == currency.code ? quote : nil
    } catch {
      throw Error.corrupt(path: fileURL.path, reason: error.description)
    }
  }

  public func save(_ quote: PriceQuote) throws {
    do {
      try file.replaceContents(with: CachedQuote(quote).encode())
    } catch {
      throw Error(error, path: fileURL.path)
    }
  }

  /// Deletes the temporary files of writers killed mid-write (`kill -9`, power loss) that are
  /// older than `age`; a live writer's file is only milliseconds old. Best effort: errors are
  /// ignored, the cache works without this.
  public func removeAbandonedTemporaryFiles(olderThan age: TimeInterval = 60, now: Date) {
    file.removeAbandonedTemporaryFiles(olderThan: age, now: now)
  }

  /// Kept, not made at each write: it works out its paths once.
  private let file: AtomicFile
}

extension FilePriceStore.Error {
  init(_ failure: AtomicFile.Failure, path: String) {
    switch failure.kind {
    case .unreadable: self = .unreadable(path: path, reason: failure.reason)
    case .corrupt: self = .corrupt(path: path, reason: failure.reason)
    case .unwritable: self = .unwritable(path: path, reason: failure.reason)
    }
  }
}

/// The file's shape. Private to persistence so the format can evolve without touching Core.
private struct CachedQuote {
  var version: Int
  var price: String
  var currency: String
  var timestamp: String
  var source: String

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  init(_ quote: PriceQuote) {
    version = 1
    price = "\(quote.value)"
    currency = quote.currency
    timestamp = ISO8601Timestamp.formatWithMilliseconds(quote.timestamp)
    source = quote.source.id
  }

  /// The members in `JSONEncoder`'s sorted order, appended by hand and copied out as bytes: the
  /// file is written every 10 s while the tool streams and by every one-shot, where
  /// `JSONEncoder`, `joined(separator:)` and `Data(text.utf8)` would pay run-time lookups and
  /// conformance scans (docs/PERFORMANCE.md, "What we own in a tick").
  func encode() -> Data {
    var text = "{\"currency\":"
    text += currency.jsonLiteral
    text += ",\"price\":"
    text += price.jsonLiteral
    text += ",\"source\":"
    text += source.jsonLiteral
    text += ",\"timestamp\":"
    text += timestamp.jsonLiteral
    text += ",\"version\":"
    text += String(version)
    text += "}"
    return text.withUTF8 { bytes in
      bytes.baseAddress.map { Data(bytes: $0, count: bytes.count) } ?? Data()
    }
  }

  /// Read with Core's strict JSON reader, not `JSONDecoder`, whose first use in a run is a large
  /// share of a one-shot (docs/PERFORMANCE.md, "The one-shot"). What is wrong is said in the
  /// words the other state files' warnings use (``DecodingProblem``): `missing "version"`,
  /// `"price" is null`, `"price" has the wrong type`, `not JSON`.
  static func decode(_ data: Data) throws(Invalid) -> CachedQuote {
    guard let text = String(strictUTF8: data) else { throw Invalid(description: "not JSON") }
    let json: JSONObjectView
    do {
      json = try JSONObjectView(text)
    } catch .notAnObject {
      throw Invalid(description: "the file has the wrong type")
    } catch {
      throw Invalid(description: "not JSON")
    }
    let versionText = try member("version", of: json).numberText
    guard let versionText, let version = Int(versionText) else {
      throw Invalid(description: #""version" has the wrong type"#)
    }
    return try CachedQuote(
      version: version, price: string("price", of: json),
      currency: string("currency", of: json), timestamp: string("timestamp", of: json),
      source: string("source", of: json))
  }

  private init(version: Int, price: String, currency: String, timestamp: String, source: String) {
    (self.version, self.price, self.currency) = (version, price, currency)
    (self.timestamp, self.source) = (timestamp, source)
  }

  private static func member(_ key: String, of json: JSONObjectView) throws(Invalid) -> JSONValue {
    switch json[key] {
    case nil: throw Invalid(description: "missing \"\(key)\"")
    case .null?: throw Invalid(description: "\"\(key)\" is null")
    case let value?: return value
    }
  }

  private static func string(_ key: String, of json: JSONObjectView) throws(Invalid) -> String {
    guard let text = try member(key, of: json).stringValue else {
      throw Invalid(description: "\"\(key)\" has the wrong type")
    }
    return text
  }

  func quote(knownSources: [PriceSource]) throws(Invalid) -> PriceQuote {
    guard version == 1 else { throw Invalid(description: "unknown version \(version)") }
    // The same strict parser the sources' prices go through: "1.2.3" is not a price.
    guard let value = ExactDecimal.parse(price, grammar: .plain), value > 0 else {
      throw Invalid(description: "price \"\(price.prefix(40))\" is not a positive decimal")
    }
    guard Currency.named(currency)?.code == currency else {
      throw Invalid(description: "currency \"\(currency.prefix(10))\" is not one this build knows")
    }
    guard let date = ISO8601Timestamp.parse(timestamp) else {
      throw Invalid(description: "timestamp \"\(timestamp.prefix(40))\" is not ISO 8601")
    }
    guard !source.isEmpty, source.count <= 40 else { throw Invalid(description: "bad source") }
    return PriceQuote(
      value: value, currency: currency, timestamp: date,
      source: .named(source, among: knownSources))
  }
}
