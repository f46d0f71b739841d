import BTCPriceCore
import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the limits sources set (bans, rate limits, refusals) across runs, in one small JSON
/// file replaced atomically, so that a restart does not ask a source that banned us:
///
/// ```json
/// {"version":1,"limits":[{"source":"binance","endpoint":"https://api.binance.com",
///  "until":"2026-11-22T14:13:05.000Z","kind":"rateLimited","status":418,"message":"…",
///  "apiKeyGiven":false}]}
/// ```
public struct FileSourceLimitStore: SourceLimitStore {
  /// Why the state file could not be used.
  public struct Error: Swift.Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  public let fileURL: URL

  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// `$STATE_DIRECTORY/limits.json` under a systemd unit's `StateDirectory=`; else
  /// `$XDG_STATE_HOME/btc-price/limits.json` when `XDG_STATE_HOME` is an absolute path, on every
  /// system; else `platformDefault` when there is one (Application Support on Apple platforms:
  /// ``applicationSupportFileURL(fileManager:)``), else `~/.local/state/btc-price/limits.json`.
  ///
  /// A set variable wins on a Mac too: Mac users of command-line tools expect it (ripgrep, gh,
  /// fish read it), and it is how the tests, and the binaries they start, keep their bans and
  /// alerts out of the real user's folder.
  public static func defaultFileURL(environment: [String: String], platformDefault: URL? = nil)
    -> URL
  {
    if let folder = ServiceDirectory.state.path(in: environment) {
      return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("limits.json")
    }
    let base: URL
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else if let platformDefault {
      return platformDefault
    } else {
      // URL.homeDirectory, not FileManager.homeDirectoryForCurrentUser: the latter is
      // unavailable on iOS, and the app links this target (scripts/check-ios-apis).
      let home =
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? URL.homeDirectory.path
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local").appendingPathComponent("state")
    }
    return base.appendingPathComponent("btc-price").appendingPathComponent("limits.json")
  }

  /// `<Application Support>/btc-price/limits.json`, where the Apple platforms keep state.
  public static func applicationSupportFileURL(fileManager: FileManager = .default) throws -> URL {
    try fileManager.url(
      for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false
    )
    .appendingPathComponent("btc-price", isDirectory: true)
    .appendingPathComponent("limits.json")
  }

  public func load() throws -> [SourceLimit] {
    let data: Data
    do {
      guard let read = try file.contents() else { return [] }
      data = read
    } catch {
      throw Error(error, path: fileURL.path)
    }
    do {
      return try JSONDecoder().decode(StoredLimits.self, from: data).decoded()
    } catch {
      throw Error(
        description:
          "ignoring corrupt state file \(fileURL.path): \(DecodingProblem.describe(error))")
    }
  }

  public func save(_ limits: [SourceLimit]) throws {
    do {
      try file.replaceContents(with: StoredLimits(limits).encode())
    } catch {
      throw Error(error, path: fileURL.path)
    }
  }

  private var file: AtomicFile {
    AtomicFile(url: fileURL, maxSize: 64 * 1024)
  }
}

extension FileSourceLimitStore.Error {
  init(_ failure: AtomicFile.Failure, path: String) {
    switch failure.kind {
    case .unreadable: description = "cannot read \(path): \(failure.reason)"
    case .corrupt: description = "ignoring corrupt state file \(path): \(failure.reason)"
    case .unwritable: description = "cannot write \(path): \(failure.reason)"
    }
  }
}

/// The file's shape. Private to persistence so the format can evolve without touching Core.
private struct StoredLimits: Codable {
  struct Limit: Codable {
    var source: String
    var endpoint: String
    var until: String
    /// `rateLimited`, `httpStatus` or `refused`.
    var kind: String
    var status: Int?
    var message: String?
    var apiKeyGiven: Bool
  }

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  var version: Int
  var limits: [Limit]

  init(_ limits: [SourceLimit]) {
    version = 1
    self.limits = limits.compactMap { limit in
      let until = ISO8601Timestamp.formatWithMilliseconds(limit.until)
      switch limit.cause {
      case .rateLimited(let status, _, let message):
        return Limit(
          source: limit.source, endpoint: limit.endpoint, until: until, kind: "rateLimited",
          status: status, message: message, apiKeyGiven: limit.apiKeyGiven)
      case .httpStatus(let status, let message):
        return Limit(
          source: limit.source, endpoint: limit.endpoint, until: until, kind: "httpStatus",
          status: status, message: message, apiKeyGiven: limit.apiKeyGiven)
      case .refused(let message):
        return Limit(
          source: limit.source, endpoint: limit.endpoint, until: until, kind: "refused",
          status: nil, message: message, apiKeyGiven: limit.apiKeyGiven)
      default:
        return nil
      }
    }
  }

  func encode() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Strings, numbers and booleans: encoding cannot fail.
    return (try? encoder.encode(self)) ?? Data()
  }

  func decoded() throws -> [SourceLimit] {
    guard version == 1 else { throw Invalid(description: "unknown version \(version)") }
    return try limits.map { stored in
      guard let until = ISO8601Timestamp.parse(stored.until) else {
        throw Invalid(description: "until \"\(stored.until.prefix(40))\" is not ISO 8601")
      }
      guard !stored.source.isEmpty, stored.source.count <= 40 else {
        throw Invalid(description: "bad source")
      }
      let cause: PriceSourceError
      switch (stored.kind, stored.status) {
      case ("rateLimited", let status):
        cause = .rateLimited(status: status, retryAfter: nil, message: stored.message)
      case ("httpStatus", let status?):
        cause = .httpStatus(status, message: stored.message)
      case ("refused", nil):
        cause = .refused(stored.message ?? "")
      default:
        throw Invalid(description: "unknown limit \(stored.kind.prefix(20))")
      }
      return SourceLimit(
        source: stored.source, endpoint: stored.endpoint, until: until, cause: cause,
        apiKeyGiven: stored.apiKeyGiven)
    }
  }
}
