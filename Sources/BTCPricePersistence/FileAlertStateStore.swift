import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps where each alert rule stands across runs, in one small JSON file next to the limits
/// (`$XDG_STATE_HOME/btc-price/alerts.json`), replaced atomically:
///
/// ```json
/// {"rules":{"above:100000 USD":"fired","below:90000 USD":"armed"},"version":1}
/// ```
public struct FileAlertStateStore: AlertStateStore {
  /// Why the alert state file could not be used.
  public struct Error: Swift.Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// More rules than anyone watches; a file with more is not ours.
  static let maxRules = 1000

  public let fileURL: URL

  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// `alerts.json` in the folder of the limits' state file (`$XDG_STATE_HOME/btc-price/`).
  public static func defaultFileURL(environment: [String: String]) -> URL {
    FileSourceLimitStore.defaultFileURL(environment: environment)
      .deletingLastPathComponent().appendingPathComponent("alerts.json")
  }

  public func load() throws -> [String: AlertArming] {
    let data: Data
    do {
      guard let read = try file.contents() else { return [:] }
      data = read
    } catch {
      throw Error(description: Self.describe(error, path: fileURL.path))
    }
    let stored: StoredAlerts
    do {
      stored = try JSONDecoder().decode(StoredAlerts.self, from: data)
    } catch {
      throw Error(
        description:
          "ignoring corrupt alert state file \(fileURL.path): \(DecodingProblem.describe(error))")
    }
    guard stored.version == 1, stored.rules.count <= Self.maxRules else {
      throw Error(description: "ignoring corrupt alert state file \(fileURL.path)")
    }
    var states: [String: AlertArming] = [:]
    for (key, value) in stored.rules {
      guard key.utf8.count <= 100, let arming = AlertArming(rawValue: value) else {
        throw Error(description: "ignoring corrupt alert state file \(fileURL.path)")
      }
      states[key] = arming
    }
    return states
  }

  public func save(_ states: [String: AlertArming]) throws {
    // Rules of other runs are kept, up to the bound: the first keys in order, so that two runs
    // agree on which ones stay.
    let kept = states.keys.sorted().prefix(Self.maxRules)
    let stored = StoredAlerts(
      version: 1, rules: Dictionary(uniqueKeysWithValues: kept.map { ($0, states[$0]!.rawValue) }))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      // Strings only: encoding cannot fail.
      try file.replaceContents(with: (try? encoder.encode(stored)) ?? Data())
    } catch {
      throw Error(description: Self.describe(error, path: fileURL.path))
    }
  }

  private var file: AtomicFile {
    AtomicFile(url: fileURL, maxSize: 128 * 1024)
  }

  private static func describe(_ failure: AtomicFile.Failure, path: String) -> String {
    switch failure.kind {
    case .unreadable: "cannot read \(path): \(failure.reason)"
    case .corrupt: "ignoring corrupt alert state file \(path): \(failure.reason)"
    case .unwritable: "cannot write \(path): \(failure.reason)"
    }
  }
}

/// The file's shape, private so the format can evolve without touching Core.
private struct StoredAlerts: Codable {
  var version: Int
  var rules: [String: String]
}
