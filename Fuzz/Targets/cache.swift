// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPricePersistence
import BTCPriceCore
import BTCPricePersistence

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

/// The files the tool reads back at start: the last price (`FilePriceStore`), the day's candles
/// (`FileCandleStore`), where the alert rules stand (`FileAlertStateStore`) and the sources'
/// limits (`FileSourceLimitStore`). The input's first line names the file (`price`, `candles`,
/// `alerts`, `limits`); the rest is its bytes, written to a file of this process in the
/// temporary folder (`$TMPDIR`) and read with the store's `load`.
///
/// Properties of what loads:
/// - saved with the store's `save` and loaded again, it is what was loaded first, when the file
///   writes its times to the millisecond at most (the precision the stores write) and is JSON as
///   the oracle reads it, each name once; otherwise the first save may change it, and what that
///   save wrote loads back unchanged;
/// - a price, and each candle's four prices, is the value of the number written in the file's
///   member for it (the strict reader refuses a name written twice; for the files read with
///   `JSONDecoder` this is checked only where no name is written twice);
/// - an alert state is a rule and a state written in the file's `rules`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (name, body) = splitCase(bytes(data, size)), let file = CacheFile(rawValue: name)
  else { return 0 }
  do {
    try Data(body).write(to: file.url)
  } catch {
    violated("cannot write \(file.url.path): \(error)")
  }
  let json = OracleJSON.read(body)
  // Exact where the oracle reads the file the way the store does: one document, each name once.
  let exact = json.map { !$0.repeatsAName && !hasSubMillisecondTime($0) } ?? false
  switch file {
  case .price:
    let store = FilePriceStore(fileURL: file.url, knownSources: knownSources)
    guard let quote = try? store.load() else { return 0 }
    guard let json, isTheValue(quote.value, of: json.member("price")?.string) else {
      violated("price: \(quote.value) is not the price written")
    }
    roundTrip(
      "price", quote, exact: exact, save: { try store.save($0) }, load: { try store.load() })
  case .candles:
    let store = FileCandleStore(folder: cacheFolder, knownSources: knownSources)
    guard let series = try? store.load(.day) else { return 0 }
    if let json, !json.repeatsAName {
      let written = json.member("candles")?.elements ?? []
      guard written.count == series.candles.count else {
        violated("candles: \(series.candles.count) candles out of \(written.count) written")
      }
      for (candle, fields) in zip(series.candles, written) {
        let texts = (fields.elements ?? []).dropFirst().map(\.string)
        let prices = [candle.open, candle.high, candle.low, candle.close]
        guard texts.count == 4, zip(prices, texts).allSatisfy({ isTheValue($0, of: $1) }) else {
          violated("candles: \(candle) is not the prices written, \(texts)")
        }
      }
    }
    roundTrip(
      "candles", series, exact: exact, save: { try store.save($0, for: .day) },
      load: { try store.load(.day) })
  case .alerts:
    let store = FileAlertStateStore(fileURL: file.url)
    guard let states = try? store.load() else { return 0 }
    if let json, !json.repeatsAName {
      let rules = json.member("rules")?.members ?? []
      for (rule, arming) in states {
        guard rules.contains(where: { $0.name == rule && $0.value.string == arming.rawValue })
        else {
          violated("alerts: \(String(reflecting: rule)) \(arming) is not written in the rules")
        }
      }
      guard rules.count == states.count else {
        violated("alerts: \(states.count) rules out of \(rules.count) written")
      }
    }
    roundTrip(
      "alerts", states, exact: exact, save: { try store.save($0) }, load: { try store.load() })
  case .limits:
    let store = FileSourceLimitStore(fileURL: file.url)
    guard let limits = try? store.load() else { return 0 }
    roundTrip(
      "limits", limits, exact: exact, save: { try store.save($0) }, load: { try store.load() })
  }
  return 0
}

enum CacheFile: String {
  case price, candles, alerts, limits

  var url: URL {
    switch self {
    case .price: cacheFolder.appendingPathComponent("last-price.json")
    case .candles:
      FileCandleStore(folder: cacheFolder, knownSources: knownSources).fileURL(for: .day)
    case .alerts: cacheFolder.appendingPathComponent("alerts.json")
    case .limits: cacheFolder.appendingPathComponent("limits.json")
    }
  }
}

let knownSources = [PriceSource(id: "binance", displayName: "Binance")]

/// This process's folder in the temporary folder, made once and removed when the process exits;
/// every run overwrites its files.
let cacheFolder: URL = {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "btc-price-fuzz-cache-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  } catch {
    violated("cannot make \(folder.path): \(error)")
  }
  atexit { try? FileManager.default.removeItem(at: cacheFolder) }
  return folder
}()

/// `loaded`, saved and loaded back, must be what was loaded (`exact`), or else what that save
/// wrote must load back unchanged.
func roundTrip<Value: Equatable>(
  _ name: String, _ loaded: Value, exact: Bool, save: (Value) throws -> Void,
  load: () throws -> Value?
) {
  func cycle(_ value: Value) -> Value {
    do {
      try save(value)
      guard let again = try load() else { violated("\(name): \(value), saved, loads as nothing") }
      return again
    } catch {
      violated("\(name): \(value), saved, does not load: \(error)")
    }
  }
  let again = cycle(loaded)
  if exact {
    guard again == loaded else { violated("\(name): \(loaded), saved, loads as \(again)") }
  } else {
    let third = cycle(again)
    guard third == again else { violated("\(name): \(again), saved, loads as \(third)") }
  }
}

/// True when some string in the document is a time with more than three digits after its
/// seconds (`05.1234Z`): more than the stores write.
func hasSubMillisecondTime(_ json: OracleJSON) -> Bool {
  switch json {
  case .object(let members): return members.contains { hasSubMillisecondTime($0.value) }
  case .array(let elements): return elements.contains { hasSubMillisecondTime($0) }
  case .string(let text):
    guard text.hasSuffix("Z"), let point = text.lastIndex(of: ".") else { return false }
    let fraction = text[text.index(after: point)...].dropLast()
    return fraction.count > 3 && fraction.allSatisfy { ("0"..."9").contains($0) }
  default: return false
  }
}
