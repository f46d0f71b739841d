import BTCPriceCore
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Cache the last price in a file", .hangLimit(.seconds(30)))
final class FilePriceStoreTests {
  let folder: URL
  let fileURL: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("FilePriceStoreTests-\(UUID().uuidString)")
    fileURL = folder.appendingPathComponent("nested/btc-price/last-price.json")
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: - The store contract

  @Test func load_deliversNothingWhenNoFileExists() throws {
    try PriceStoreSpecs.contract(makeSUT()).loadDeliversNothingWhenEmpty()
  }

  @Test func load_deliversSavedQuoteExactly() throws {
    try PriceStoreSpecs.contract(makeSUT()).loadDeliversSavedValueExactly()
  }

  @Test func save_replacesPreviousQuote() throws {
    try PriceStoreSpecs.contract(makeSUT()).saveReplacesPreviousValue()
  }

  @Test func load_throwsOnCorruptFile() throws {
    try PriceStoreSpecs.contract(makeSUT()).loadThrowsOnCorruptData {
      try writeFile(Data(#"{"version":1,"price":"68901.2"#.utf8))
    }
  }

  @Test func save_throwsAndKeepsPreviousQuoteWhenFolderIsUnwritable() throws {
    let unwritable = UnwritableFolder(
      fileURL: fileURL, parking: folder.appendingPathComponent("moved"))
    try PriceStoreSpecs.contract(makeSUT()).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: unwritable.breakWriting, restoreWriting: unwritable.restoreWriting)
  }

  // MARK: - File specifics

  /// `--cache-path /dev/null`, run as root, once replaced the machine's /dev/null with a
  /// regular file: the write's rename replaces whatever has the name. A FIFO stands in for the
  /// device (no root needed): the save is refused and the FIFO is still one.
  @Test func save_refusesToReplaceWhatIsNotAFile_likeADevice() throws {
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    #expect(mkfifo(fileURL.path, 0o644) == 0)

    #expect(throws: FilePriceStore.Error.self) {
      try self.makeSUT().save(PriceStoreSpecs.sample)
    }
    var status = stat()
    #expect(lstat(fileURL.path, &status) == 0)
    #expect(status.st_mode & mode_t(S_IFMT) == mode_t(S_IFIFO), "the FIFO was replaced")
  }

  @Test func save_createsMissingFoldersAndWritesReadableJSON() throws {
    try makeSUT().save(PriceStoreSpecs.sample)

    let text = try String(contentsOf: fileURL, encoding: .utf8)
    #expect(
      text
        == #"{"currency":"USD","price":"68901.23","source":"binance","timestamp":"2026-11-22T14:03:05.250Z","version":1}"#
    )
  }

  /// The file is written by hand, not by `JSONEncoder`: a source's name that JSON must escape
  /// (a quote, a backslash, a control character) still reads back as it was, on one line.
  @Test func save_escapesWhatJSONMust_soASourceOfAnyNameReadsBack() throws {
    let name = "odd \"one\" \\ \u{1}\n"
    let sample = PriceStoreSpecs.sample
    let quote = PriceQuote(
      value: sample.value, currency: sample.currency, timestamp: sample.timestamp,
      source: .named(name, among: []))

    try makeSUT().save(quote)

    #expect(try makeSUT().load() == quote)
    let text = try String(contentsOf: fileURL, encoding: .utf8)
    #expect(text.contains(#""source":"odd \"one\" \\ \u0001\n""#))
  }

  /// A file where the cache's folder should be (`--cache-path notes.txt/last.json`) is refused
  /// with the reason a user can act on, not FileManager's "File exists".
  @Test func save_underAFileInsteadOfAFolder_isRefusedAsNotADirectory() throws {
    let folder = fileURL.deletingLastPathComponent()
    try FileManager.default.createDirectory(
      at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("notes".utf8).write(to: folder)

    let refusal = FilePriceStore.Error.unwritable(path: fileURL.path, reason: "Not a directory")
    #expect(throws: refusal) { try self.makeSUT().save(PriceStoreSpecs.sample) }
  }

  @Test func save_leavesNoTemporaryFilesBehind() throws {
    let sut = makeSUT()
    for _ in 0..<5 { try sut.save(PriceStoreSpecs.sample) }

    let names = try FileManager.default.contentsOfDirectory(
      atPath: fileURL.deletingLastPathComponent().path)
    #expect(names == ["last-price.json"])
  }

  @Test func removeAbandonedTemporaryFiles_deletesOnlyOldTemporaryFilesOfThisCache() throws {
    let sut = makeSUT()
    try sut.save(PriceStoreSpecs.sample)
    let parent = fileURL.deletingLastPathComponent()
    let now = Date()
    let files = [
      ".last-price.json.4242.17.tmp": now.addingTimeInterval(-120),  // a killed writer's
      ".last-price.json.4343.18.tmp": now.addingTimeInterval(-1),  // a live writer's
      "notes.tmp": now.addingTimeInterval(-3600),  // not ours
    ]
    for (name, modified) in files {
      let path = parent.appendingPathComponent(name).path
      try Data("{".utf8).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    sut.removeAbandonedTemporaryFiles(now: now)

    let names = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
    #expect(names == [".last-price.json.4343.18.tmp", "last-price.json", "notes.tmp"])
    #expect(try sut.load() == PriceStoreSpecs.sample)
  }

  @Test(arguments: [
    "", "null", "[]", "not json",
    #"{"version":2,"price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"binance"}"#,
    #"{"version":1,"price":"-1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"binance"}"#,
    #"{"version":1,"price":"1e5","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"binance"}"#,
    #"{"version":1,"price":"12","currency":"XBT","timestamp":"2026-11-22T14:03:05Z","source":"binance"}"#,
    #"{"version":1,"price":"12","currency":"USD","timestamp":"yesterday","source":"binance"}"#,
  ])
  func load_reportsCorruptFileAsCorruptWithItsPath(content: String) throws {
    try writeFile(Data(content.utf8))

    #expect {
      try self.makeSUT().load()
    } throws: { error in
      guard case .corrupt(let path, _) = error as? FilePriceStore.Error else { return false }
      return path == self.fileURL.path
    }
  }

  /// The warning says what is wrong in a few words, not Swift's description of a DecodingError.
  @Test(arguments: [
    (
      #"{"price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"binance"}"#,
      #"missing "version""#
    ),
    (
      #"{"version":1,"price":12,"currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"x"}"#,
      #""price" has the wrong type"#
    ),
    (
      #"{"version":1,"price":null,"currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"x"}"#,
      #""price" is null"#
    ),
    (#"{"version":1,"pri"#, "not JSON"),
    ("[]", "the file has the wrong type"),
    ("null", "the file has the wrong type"),
    (
      #"{"version":"1","price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"x"}"#,
      #""version" has the wrong type"#
    ),
    (
      #"{"version":1.5,"price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"x"}"#,
      #""version" has the wrong type"#
    ),
    (
      #"{"version":1,"price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z"}"#,
      #"missing "source""#
    ),
  ])
  func load_saysBrieflyWhatIsWrong(content: String, reason: String) throws {
    try writeFile(Data(content.utf8))

    #expect {
      try self.makeSUT().load()
    } throws: { error in
      "\(error)" == "ignoring corrupt cache \(self.fileURL.path): \(reason)"
    }
  }

  /// Bytes that are not UTF-8 are not JSON, even inside a string member.
  @Test func load_refusesBytesThatAreNotUTF8() throws {
    var content = Data(
      #"{"version":1,"price":"1","currency":"USD","timestamp":"2026-11-22T14:03:05Z","source":"x"#
        .utf8)
    content.append(contentsOf: [0xFF, 0x22, 0x7D])
    try writeFile(content)

    #expect {
      try self.makeSUT().load()
    } throws: { error in
      "\(error)" == "ignoring corrupt cache \(self.fileURL.path): not JSON"
    }
  }

  /// Escapes are read as JSON reads them, members in any order, and members the file does not
  /// use are passed over.
  @Test func load_readsEscapesAndMembersInAnyOrder() throws {
    try writeFile(
      Data(
        #"""
        { "source" : "kr\u0061ken", "note": [1, {"a": null}], "timestamp": "2026-11-22T14:03:05.123Z",
          "currency": "USD", "price": "68901.23", "version": 1 }
        """#.utf8))

    let loaded = try #require(try makeSUT().load())
    #expect(loaded.value == Decimal(string: "68901.23"))
    #expect(loaded.source.displayName == "Kraken")
    #expect(loaded.timestamp == Date(timeIntervalSince1970: 1_795_356_185.123))
  }

  @Test func load_rejectsFilesLargerThan64KiB() throws {
    try writeFile(Data(repeating: 0x20, count: 70_000))

    #expect(throws: FilePriceStore.Error.self) { try self.makeSUT().load() }
  }

  @Test func save_fromManyThreadsAtOnceAlwaysLeavesOneValidQuote() async throws {
    let sut = makeSUT()
    let quotes = (1...40).map {
      PriceQuote(
        value: Decimal($0), timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: .binance)
    }

    await withTaskGroup(of: Void.self) { group in
      for quote in quotes {
        group.addTask { try? sut.save(quote) }
        group.addTask { _ = try? sut.load() }
      }
    }

    let loaded = try #require(try sut.load())
    #expect(quotes.contains(loaded))
  }

  /// A streaming run saves every 10 s for as long as it runs: a save that kept its file open
  /// would use up the process's descriptors within hours (1,024 here). Other tests of this
  /// process open and close files meanwhile, so the bound is loose; a leak would be 300.
  @Test func save_leavesNoDescriptorOpen() throws {
    let sut = makeSUT()
    let quote = PriceQuote(
      value: 68901.23, timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: .binance)
    try sut.save(quote)
    let before = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count

    for _ in 1...300 { try sut.save(quote) }

    let after = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count
    #expect(after - before < 150, "\(before) descriptors open before, \(after) after")
  }

  @Test func load_namesACachedSourceWithItsDisplayName() throws {
    let kraken = PriceQuote(
      value: 68870.1, timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: .kraken)
    try makeSUT().save(kraken)

    #expect(try makeSUT().load()?.source.displayName == "Kraken")
  }

  @Test func load_namesASourceThisBuildDoesNotKnowByItsId() throws {
    let unknown = PriceSource(id: "ftx", displayName: "FTX")
    try makeSUT().save(
      PriceQuote(value: 1, timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: unknown))

    #expect(try makeSUT().load()?.source == PriceSource(id: "ftx", displayName: "ftx"))
  }

  @Test func load_ofAQuoteInAnotherCurrency_isNothingSavedForThisOne() throws {
    let euros = PriceQuote(
      value: 63412.7, currency: "EUR", timestamp: Date(timeIntervalSince1970: 1_795_356_185),
      source: .kraken)
    try FilePriceStore(fileURL: fileURL, knownSources: [], currency: .eur).save(euros)

    #expect(try makeSUT().load() == nil, "a USD run never shows a EUR price")
    #expect(
      try FilePriceStore(fileURL: fileURL, knownSources: [], currency: .eur).load()?.value
        == 63412.7)
  }

  @Test func defaultFileURL_keepsOneFilePerCurrency() {
    let environment = ["XDG_CACHE_HOME": "/c"]
    #expect(
      FilePriceStore.defaultFileURL(environment: environment).path
        == "/c/btc-price/last-price.json")
    #expect(
      FilePriceStore.defaultFileURL(environment: environment, currency: .jpy).path
        == "/c/btc-price/last-price-jpy.json")
  }

  @Test func defaultFileURL_followsXDGCacheHomeThenHome() {
    #expect(
      FilePriceStore.defaultFileURL(environment: ["XDG_CACHE_HOME": "/tmp/xdg", "HOME": "/home/a"])
        .path
        == "/tmp/xdg/btc-price/last-price.json")
    #expect(
      FilePriceStore.defaultFileURL(environment: ["HOME": "/home/a"]).path
        == "/home/a/.cache/btc-price/last-price.json")
    #expect(
      FilePriceStore.defaultFileURL(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/a"])
        .path
        == "/home/a/.cache/btc-price/last-price.json",
      "a relative XDG_CACHE_HOME is ignored, as the spec says")
  }

  @Test func defaultFileURL_putsTheFileInTheUnitsCacheDirectoryFirst() {
    let environment = [
      "CACHE_DIRECTORY": "/var/cache/btc-price", "XDG_CACHE_HOME": "/x", "HOME": "/home/a",
    ]

    #expect(
      FilePriceStore.defaultFileURL(environment: environment).path
        == "/var/cache/btc-price/last-price.json",
      "systemd's CacheDirectory= names the folder itself: no btc-price/ under it")
    #expect(
      FilePriceStore.defaultFileURL(environment: environment, currency: .eur).path
        == "/var/cache/btc-price/last-price-eur.json")
  }

  @Test func defaultFileURL_needsNoHomeUnderAUnit() {
    // A DynamicUser= unit's user has no home folder; the cache must not be looked for there.
    #expect(
      FilePriceStore.defaultFileURL(environment: ["CACHE_DIRECTORY": "/var/cache/btc-price"])
        .path == "/var/cache/btc-price/last-price.json")
  }

  private func makeSUT() -> FilePriceStore {
    FilePriceStore(fileURL: fileURL, knownSources: PriceSourceRegistry.sources)
  }

  /// Puts `data` where the store reads, as a hand edit or another program would.
  private func writeFile(_ data: Data) throws {
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: fileURL)
  }
}
