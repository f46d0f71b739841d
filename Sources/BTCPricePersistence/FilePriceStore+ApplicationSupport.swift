#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension FilePriceStore {
  /// `<Application Support>/btc-price/last-price.json`, where the Apple apps keep the last price.
  ///
  /// Application Support rather than Caches: the system may purge Caches when storage runs low,
  /// and the last good value must survive until the next success replaces it. The file is the
  /// terminal's format, so the same atomic write and the same store specs cover both.
  public static func applicationSupportFileURL(fileManager: FileManager = .default) throws -> URL {
    try fileManager.url(
      for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false
    )
    .appendingPathComponent("btc-price", isDirectory: true)
    .appendingPathComponent("last-price.json")
  }
}
