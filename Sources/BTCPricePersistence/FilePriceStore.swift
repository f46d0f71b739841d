import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps the last quote in one small JSON file.
///
/// Writes go to a uniquely named temporary file in the same folder, are flushed to disk and then
/// renamed over the old file, so a reader (or a second instance, or the next run after `kill -9`)
/// sees the old or the new quote, never a torn one.
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
  /// A cache file larger than this is not ours.
  static let maxFileSize = 64 * 1024

  public init(fileURL: URL, knownSources: [PriceSource]) {
    self.fileURL = fileURL
    self.knownSources = knownSources
  }

  /// `$XDG_CACHE_HOME/btc-price/last-price.json`, else `~/.cache/btc-price/last-price.json`.
  public static func defaultFileURL(environment: [String: String]) -> URL {
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      let home =
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? FileManager.default.homeDirectoryForCurrentUser.path
      base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
    }
    return base.appendingPathComponent("btc-price").appendingPathComponent("last-price.json")
  }

  public func load() throws -> PriceQuote? {
    let path = fileURL.path
    let data: Data
    do {
      data = try Data(contentsOf: fileURL)
    } catch let error as CocoaError where Self.meansNothingSaved(error) {
      return nil
    } catch {
      throw Error.unreadable(path: path, reason: Self.reason(error))
    }
    guard data.count <= Self.maxFileSize else {
      throw Error.corrupt(path: path, reason: "file is \(data.count) bytes")
    }
    do {
      return try CachedQuote.decode(data).quote(knownSources: knownSources)
    } catch {
      throw Error.corrupt(path: path, reason: String(describing: error))
    }
  }

  public func save(_ quote: PriceQuote) throws {
    let data = CachedQuote(quote).encode()
    let folder = fileURL.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw Error.unwritable(path: fileURL.path, reason: Self.reason(error))
    }
    let temporary = folder.appendingPathComponent(
      ".\(fileURL.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    if let reason = Self.writeFully(data, to: temporary.path)
      ?? Self.moveIntoPlace(temporary.path, fileURL.path)
    {
      unlink(temporary.path)
      throw Error.unwritable(path: fileURL.path, reason: reason)
    }
  }

  /// Deletes the temporary files of writers killed mid-write (`kill -9`, power loss) that are
  /// older than `age`; a live writer's file is only milliseconds old. Best effort: errors are
  /// ignored, the cache works without this.
  public func removeAbandonedTemporaryFiles(olderThan age: TimeInterval = 60, now: Date) {
    let folder = fileURL.deletingLastPathComponent()
    let prefix = ".\(fileURL.lastPathComponent)."
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let path = folder.appendingPathComponent(name).path
      let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate]
      if let modified = modified as? Date, now.timeIntervalSince(modified) > age {
        unlink(path)
      }
    }
  }

  /// Writes and flushes a new file; returns why it failed, or nil.
  private static func writeFully(_ data: Data, to path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return errnoText() }
    defer { close(descriptor) }
    let failure: String? = data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errnoText()
        }
        offset += written
      }
      return nil
    }
    if let failure { return failure }
    return fsync(descriptor) == 0 ? nil : errnoText()
  }

  /// `rename(2)`, atomic within one file system. Named so that the C function needs no module
  /// prefix: the libc module differs per platform (Glibc, Musl, Darwin), and a prefix names only one.
  private static func moveIntoPlace(_ from: String, _ to: String) -> String? {
    rename(from, to) == 0 ? nil : errnoText()
  }

  /// No file, or a path through something that is not a folder: nothing was ever saved there.
  private static func meansNothingSaved(_ error: CocoaError) -> Bool {
    if error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile { return true }
    guard let posix = error.underlying as? POSIXError else { return false }
    return posix.code == .ENOENT || posix.code == .ENOTDIR
  }

  private static func errnoText() -> String {
    String(cString: strerror(errno))
  }

  private static func reason(_ error: any Swift.Error) -> String {
    if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
      return String(cString: strerror(underlying.code.rawValue))
    }
    return String(describing: error)
  }
}

/// The file's shape. Private to persistence so the format can evolve without touching Core.
private struct CachedQuote: Codable {
  var version: Int
  var price: String
  var currency: String
  var timestamp: String
  var source: String

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  init(_ quote: PriceQuote) {
    version = 1
    price = "\(quote.value)"
    currency = quote.currency
    timestamp = quote.timestamp.formatted(Self.timestampStyle)
    source = quote.source.id
  }

  func encode() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding five strings and an integer cannot fail.
    return (try? encoder.encode(self)) ?? Data()
  }

  static func decode(_ data: Data) throws -> CachedQuote {
    try JSONDecoder().decode(CachedQuote.self, from: data)
  }

  func quote(knownSources: [PriceSource]) throws -> PriceQuote {
    guard version == 1 else { throw Invalid(description: "unknown version \(version)") }
    guard price.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Decimal(string: price, locale: Locale(identifier: "en_US_POSIX")), value > 0
    else { throw Invalid(description: "price \"\(price.prefix(40))\" is not a positive decimal") }
    guard currency == "USD" else { throw Invalid(description: "currency is not USD") }
    guard let date = try? Self.timestampStyle.parse(timestamp) else {
      throw Invalid(description: "timestamp \"\(timestamp.prefix(40))\" is not ISO 8601")
    }
    guard !source.isEmpty, source.count <= 40 else { throw Invalid(description: "bad source") }
    return PriceQuote(
      value: value, currency: currency, timestamp: date,
      source: .named(source, among: knownSources))
  }
}
