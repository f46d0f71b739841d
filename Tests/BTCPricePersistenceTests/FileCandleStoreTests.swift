import BTCPriceCore
import BTCPricePersistence
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Keep the price history in files beside the last price", .hangLimit(.seconds(30)))
final class FileCandleStoreTests {
  let folder: URL
  let cacheFolder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileCandleStoreTests-\(UUID().uuidString)")
    cacheFolder = folder.appendingPathComponent("nested/btc-price")
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: - The store contract

  @Test(arguments: ChartRange.allCases)
  func load_deliversNothingWhenNoFileExists(range: ChartRange) throws {
    try CandleStoreSpecs.contract(makeSUT(), range: range).loadDeliversNothingWhenEmpty()
  }

  @Test func load_deliversSavedHistoryExactly() throws {
    try CandleStoreSpecs.contract(makeSUT()).loadDeliversSavedValueExactly()
  }

  @Test func save_replacesPreviousHistory() throws {
    try CandleStoreSpecs.contract(makeSUT()).saveReplacesPreviousValue()
  }

  @Test func save_keepsTheRangesApart() throws {
    try CandleStoreSpecs.saveKeepsTheRangesApart(makeSUT())
  }

  @Test func load_throwsOnCorruptFile() throws {
    try CandleStoreSpecs.contract(makeSUT()).loadThrowsOnCorruptData {
      try writeFile(#"{"version":1,"candles":[["17"#, range: .day)
    }
  }

  @Test func save_throwsAndKeepsPreviousHistoryWhenFolderIsUnwritable() throws {
    try CandleStoreSpecs.contract(makeSUT()).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: {
        // Replacing the folder by a file breaks writing even for root, which ignores modes.
        try FileManager.default.moveItem(
          at: cacheFolder, to: folder.appendingPathComponent("moved"))
        try Data("not a folder".utf8).write(to: cacheFolder)
      },
      restoreWriting: {
        try FileManager.default.removeItem(at: cacheFolder)
        try FileManager.default.moveItem(
          at: folder.appendingPathComponent("moved"), to: cacheFolder)
      })
  }

  // MARK: - File specifics

  @Test func eachRangeAndCurrency_hasItsFileInThePriceCachesFolder() {
    let priceFile = FilePriceStore.defaultFileURL(environment: ["XDG_CACHE_HOME": "/c"])

    let usd = FileCandleStore(besidePriceFile: priceFile, knownSources: [], currency: .usd)
    let eur = FileCandleStore(besidePriceFile: priceFile, knownSources: [], currency: .eur)

    #expect(usd.fileURL(for: .day).path == "/c/btc-price/history-24h.json")
    #expect(usd.fileURL(for: .month).path == "/c/btc-price/history-30d.json")
    #expect(eur.fileURL(for: .week).path == "/c/btc-price/history-7d-eur.json")
  }

  @Test func save_writesReadableJSONWithExactPrices() throws {
    try makeSUT().save(CandleStoreSpecs.day, for: .day)

    let text = try String(
      contentsOf: cacheFolder.appendingPathComponent("history-24h.json"), encoding: .utf8)
    #expect(
      text
        == #"{"candles":[["1795356000","68901.23","68950","68880.5","68940.00000001"],"#
        + #"["1795356300","68940","68990.1","68930","68985.99"]],"currency":"USD","#
        + #""fetchedAt":"2026-11-22T14:07:00.250Z","period":300,"source":"binance","version":1}"#)
  }

  @Test func save_leavesNoTemporaryFilesBehind() throws {
    let sut = makeSUT()
    for _ in 0..<5 { try sut.save(CandleStoreSpecs.day, for: .day) }

    #expect(
      try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path) == ["history-24h.json"])
  }

  @Test func load_ofAHistoryInAnotherCurrency_isNothingSavedForThisOne() throws {
    let euros = CandleSeries.of([.flat(1_795_356_000, "63412.7")], currency: .eur)
    try FileCandleStore(folder: cacheFolder, knownSources: [], currency: .eur).save(
      euros, for: .day)
    try FileManager.default.copyItem(
      at: cacheFolder.appendingPathComponent("history-24h-eur.json"),
      to: cacheFolder.appendingPathComponent("history-24h.json"))

    #expect(try makeSUT().load(.day) == nil, "a USD run never draws a EUR history")
  }

  @Test func load_namesTheHistorysSourceWithItsDisplayName() throws {
    try makeSUT().save(.of([.flat(1_795_356_000, "1")], source: .kraken), for: .day)

    #expect(try makeSUT().load(.day)?.source.displayName == "Kraken")
  }

  /// What no exchange could have sent is not drawn from a file either.
  @Test(arguments: [
    ("version", "2", "unknown version 2"),
    ("period", "0", "period 0 is not one of a chart"),
    ("fetchedAt", #""yesterday""#, #"fetchedAt "yesterday" is not ISO 8601"#),
    ("candles", #"[["1795356000","1","2","3"]]"#, "is not [start, open, high"),
    ("candles", #"[["1795356000","1","2","3","1e5"]]"#, "is not a decimal"),
    ("candles", #"[["1795356000","1","2","3","1"]]"#, "high 2 is below low 3"),
    ("candles", #"[["1795356000","1","1","1","0"]]"#, "close 0 is not positive"),
    ("candles", "[]", "no candles"),
    ("candles", #"[["1795356300","1","1","1","1"],["1795356000","1","1","1","1"]]"#, "comes after"),
    ("candles", #"[["1795356000",1,1,1,1]]"#, "has the wrong type"),
  ])
  func load_reportsAnUndrawableFileAsCorruptWithItsPath(
    field: String, value: String, reason: String
  ) throws {
    var fields = [
      "candles": #"[["1795356000","1","1","1","1"]]"#, "currency": #""USD""#,
      "fetchedAt": #""2026-11-22T14:07:00.250Z""#, "period": "300", "source": #""binance""#,
      "version": "1",
    ]
    fields[field] = value
    try writeFile(
      "{"
        + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
        .joined(separator: ",") + "}", range: .week)

    #expect {
      try self.makeSUT().load(.week)
    } throws: { error in
      guard case .corrupt(let path, let why) = error as? FilePriceStore.Error else { return false }
      return path == self.cacheFolder.appendingPathComponent("history-7d.json").path
        && why.contains(reason)
    }
  }

  @Test func aCorruptFile_isNoHistoryAndOneWarningNamingIt() throws {
    try writeFile("not json", range: .day)
    let warnings = Locked<[String]>([])
    let history = CandleHistory(
      currency: .usd, store: makeSUT(), load: { _ in throw PriceFetchFailure(failures: []) },
      clock: SteppedTestClock(), now: { Date(timeIntervalSince1970: 1_795_356_000) },
      warn: { warnings.append($0) })

    #expect(history.series(.day) == nil)
    #expect(history.series(.day) == nil)
    #expect(
      warnings.value == [
        "ignoring corrupt cache \(cacheFolder.path)/history-24h.json: not JSON; no 24h price "
          + "history is known"
      ])
  }

  @Test func load_rejectsFilesLargerThan256KiB() throws {
    try writeFile(String(repeating: " ", count: 270_000), range: .day)

    #expect(throws: FilePriceStore.Error.self) { try self.makeSUT().load(.day) }
  }

  /// The bound is 256 KiB exactly: a history padded (JSON allows the spaces) to 262,144 bytes
  /// is read, one byte more is not ours.
  @Test func load_readsAHistoryOf256KiBExactly_andRefusesOneByteMore() throws {
    try makeSUT().save(CandleStoreSpecs.day, for: .day)
    let file = makeSUT().fileURL(for: .day)
    let saved = try String(contentsOf: file, encoding: .utf8)
    let padding = 256 * 1024 - saved.utf8.count

    try writeFile(saved + String(repeating: " ", count: padding), range: .day)
    #expect(try makeSUT().load(.day) == CandleStoreSpecs.day)

    try writeFile(saved + String(repeating: " ", count: padding + 1), range: .day)
    #expect(throws: FilePriceStore.Error.self) { try self.makeSUT().load(.day) }
  }

  private func makeSUT() -> FileCandleStore {
    FileCandleStore(folder: cacheFolder, knownSources: PriceSourceRegistry.sources, currency: .usd)
  }

  /// Puts `text` where the store reads `range`, as a hand edit or another program would.
  private func writeFile(_ text: String, range: ChartRange) throws {
    try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: makeSUT().fileURL(for: range))
  }
}
