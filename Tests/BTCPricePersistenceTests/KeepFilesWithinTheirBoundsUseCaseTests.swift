import BTCPriceCore
import BTCPricePersistence
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What each file accepts at the edge of its bounds, and what a refusal says: the survivors of
/// scripts/mutate over BTCPricePersistence (a bound moved by one, a `<=` made `<`, a message's
/// excerpt cut at another length) went through every other test.
@Suite("Keep the files within their bounds", .hangLimit(.seconds(30)))
final class KeepFilesWithinTheirBoundsUseCaseTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("KeepFilesWithinTheirBoundsUseCaseTests-\(UUID().uuidString)")

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: The alert state file

  @Test func alertState_loadsAThousandRulesAndRefusesOneMore() throws {
    let url = folder.appendingPathComponent("alerts.json")
    try write(alertFile(rules: 1000), to: url)
    #expect(try FileAlertStateStore(fileURL: url).load().count == 1000)

    try write(alertFile(rules: 1001), to: url)
    #expect(throws: FileAlertStateStore.Error.self) {
      try FileAlertStateStore(fileURL: url).load()
    }
  }

  @Test func alertState_keepsTheFirstThousandRulesInKeyOrderWhenSavingMore() throws {
    let url = folder.appendingPathComponent("alerts.json")
    let states = Dictionary(
      uniqueKeysWithValues: (0..<1001).map {
        (String(format: "above:%05d USD", $0), AlertArming.armed)
      })

    try FileAlertStateStore(fileURL: url).save(states)

    let loaded = try FileAlertStateStore(fileURL: url).load()
    #expect(loaded.count == 1000)
    #expect(loaded["above:00999 USD"] == .armed)
    #expect(loaded["above:01000 USD"] == nil)
  }

  @Test func alertState_acceptsARuleOf100BytesAndRefusesOneOf101() throws {
    let url = folder.appendingPathComponent("alerts.json")
    let longest = "above:1 " + String(repeating: "U", count: 92)
    try write(#"{"version":1,"rules":{"\#(longest)":"fired"}}"#, to: url)
    #expect(try FileAlertStateStore(fileURL: url).load() == [longest: .fired])

    try write(#"{"version":1,"rules":{"\#(longest)U":"fired"}}"#, to: url)
    #expect(throws: FileAlertStateStore.Error.self) {
      try FileAlertStateStore(fileURL: url).load()
    }
  }

  @Test func alertState_readsAFileOf128KiBAndRefusesALargerOne() throws {
    let url = folder.appendingPathComponent("alerts.json")
    try write(padded(#"{"version":1,"rules":{"above:1 USD":"armed"}}"#, to: 128 * 1024), to: url)
    #expect(try FileAlertStateStore(fileURL: url).load() == ["above:1 USD": .armed])

    try write(padded(#"{"version":1,"rules":{}}"#, to: 128 * 1024 + 1), to: url)
    #expect {
      try FileAlertStateStore(fileURL: url).load()
    } throws: {
      "\($0)" == "ignoring corrupt alert state file \(url.path): file is 131073 bytes"
    }
  }

  // MARK: The price cache

  @Test func priceCache_readsAFileOf64KiBAndRefusesALargerOne() throws {
    let url = folder.appendingPathComponent("last-price.json")
    try write(padded(cachedQuote(), to: 64 * 1024), to: url)
    let stored = try FilePriceStore(fileURL: url, knownSources: []).load()
    #expect(stored?.value == Decimal(string: "68901.23"))

    try write(padded(cachedQuote(), to: 64 * 1024 + 1), to: url)
    #expect {
      try FilePriceStore(fileURL: url, knownSources: []).load()
    } throws: {
      "\($0)" == "ignoring corrupt cache \(url.path): file is 65537 bytes"
    }
  }

  /// A cache path at something endless (`--cache-path /dev/zero`) is read up to the bound and
  /// refused, never read until memory runs out.
  @Test func priceCache_atSomethingEndless_isReadUpToItsBoundAndRefused() throws {
    let url = URL(fileURLWithPath: "/dev/zero")
    #expect {
      try FilePriceStore(fileURL: url, knownSources: []).load()
    } throws: {
      "\($0)" == "ignoring corrupt cache /dev/zero: file is more than 65536 bytes"
    }
  }

  @Test func priceCache_takesASourceOf40CharactersAndNoLongerOrEmptyOne() throws {
    let url = folder.appendingPathComponent("last-price.json")
    let longest = String(repeating: "s", count: 40)
    try write(cachedQuote(source: longest), to: url)
    #expect(try FilePriceStore(fileURL: url, knownSources: []).load()?.source.id == longest)

    for source in [longest + "s", ""] {
      try write(cachedQuote(source: source), to: url)
      #expect {
        try FilePriceStore(fileURL: url, knownSources: []).load()
      } throws: {
        "\($0)" == "ignoring corrupt cache \(url.path): bad source"
      }
    }
  }

  @Test func priceCache_refusesAPriceOfZero() throws {
    let url = folder.appendingPathComponent("last-price.json")
    try write(cachedQuote(price: "0"), to: url)

    #expect {
      try FilePriceStore(fileURL: url, knownSources: []).load()
    } throws: {
      "\($0)" == "ignoring corrupt cache \(url.path): price \"0\" is not a positive decimal"
    }
  }

  /// A refusal quotes the bad value, cut to a few words: 40 characters of a price or a
  /// timestamp, 10 of a currency.
  @Test func priceCache_quotesTheStartOfABadValue() throws {
    let url = folder.appendingPathComponent("last-price.json")
    let long = String(repeating: "x", count: 39) + "yz"
    let cases = [
      (cachedQuote(price: long), "price \"\(long.prefix(40))\" is not a positive decimal"),
      (
        cachedQuote(currency: "ABCDEFGHIJKL"), "currency \"ABCDEFGHIJ\" is not one this build knows"
      ),
      (cachedQuote(timestamp: long), "timestamp \"\(long.prefix(40))\" is not ISO 8601"),
    ]
    for (content, reason) in cases {
      try write(content, to: url)
      #expect {
        try FilePriceStore(fileURL: url, knownSources: []).load()
      } throws: {
        "\($0)" == "ignoring corrupt cache \(url.path): \(reason)"
      }
    }
  }

  @Test func priceCache_aSaveThatCannotReplaceTheFile_leavesNoTemporaryFileBehind() throws {
    let url = folder.appendingPathComponent("cache/last-price.json")
    // A folder (not empty) where the file should be: the rename over it fails.
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("in-the-way"), withIntermediateDirectories: true)
    let store = FilePriceStore(fileURL: url, knownSources: [])

    #expect(throws: FilePriceStore.Error.self) {
      try store.save(
        PriceQuote(value: 1, timestamp: Date(timeIntervalSince1970: 0), source: .binance))
    }

    let names = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    #expect(names == ["last-price.json"])
  }

  /// The cache is the user's to change and anyone's to read, never a program to run.
  @Test func priceCache_isWrittenReadableAndNotExecutable() throws {
    let url = folder.appendingPathComponent("cache/last-price.json")

    try FilePriceStore(fileURL: url, knownSources: []).save(
      PriceQuote(value: 1, timestamp: Date(timeIntervalSince1970: 0), source: .binance))

    let mode = try #require(
      try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    #expect(mode & 0o600 == 0o600, "owner reads and writes")
    #expect(mode & 0o133 == 0, "no execute bit, no write for others: \(String(mode, radix: 8))")
  }

  @Test func priceCache_atAPathThroughAFile_isNothingSaved() throws {
    try write("a file, not a folder", to: folder.appendingPathComponent("file"))
    let url = folder.appendingPathComponent("file/last-price.json")

    #expect(try FilePriceStore(fileURL: url, knownSources: []).load() == nil)
  }

  @Test func lockFile_isCreatedReadableAndNotExecutable() throws {
    let path = folder.appendingPathComponent("locks/last-price.lock").path
    let lock = try #require(FileLock(path: path, waitingAtMost: .seconds(1)))
    defer { withExtendedLifetime(lock) {} }

    let mode = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    #expect(mode & 0o600 == 0o600, "owner reads and writes")
    #expect(mode & 0o133 == 0, "no execute bit, no write for others: \(String(mode, radix: 8))")
  }

  /// Status-bar panes take turns: while one holds the lock, another waits up to its limit (on the
  /// real clock, so only a lower bound), then goes on without it.
  @Test func lockFile_heldByAnother_isWaitedForUpToTheLimitThenGivenUp() throws {
    let path = folder.appendingPathComponent("locks/last-price.lock").path
    let held = try #require(FileLock(path: path, waitingAtMost: .seconds(1)))
    defer { withExtendedLifetime(held) {} }

    let started = ContinuousClock.now
    let second = FileLock(path: path, waitingAtMost: .milliseconds(300))

    #expect(second == nil)
    #expect(ContinuousClock.now - started >= .milliseconds(300))
  }

  @Test func lockFile_releasedWhileAnotherWaits_isTakenByIt() throws {
    let path = folder.appendingPathComponent("locks/last-price.lock").path
    let held = Holder(FileLock(path: path, waitingAtMost: .seconds(1)))
    #expect(held.lock != nil)
    let release = Thread {
      Thread.sleep(forTimeInterval: 0.2)
      held.lock = nil
    }
    release.start()

    #expect(FileLock(path: path, waitingAtMost: .seconds(20)) != nil)
  }

  /// A temporary file exactly as old as the limit may still be a writer's: only older ones go,
  /// a quarter of a second older too (a file is dated to the nanosecond, not the second).
  @Test func priceCache_keepsATemporaryFileExactlyAsOldAsTheLimit() throws {
    let url = folder.appendingPathComponent("cache/last-price.json")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let now = Date(timeIntervalSince1970: 1_800_000_000.5)
    let files = [".last-price.json.1.1.tmp": 60.0, ".last-price.json.2.2.tmp": 60.25]
    for (name, age) in files {
      let path = url.deletingLastPathComponent().appendingPathComponent(name).path
      try Data("{".utf8).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes(
        [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
    }

    // The default limit: a minute.
    FilePriceStore(fileURL: url, knownSources: []).removeAbandonedTemporaryFiles(now: now)

    let names = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    #expect(names == [".last-price.json.1.1.tmp"])
  }

  /// A status bar's one-shot takes and lets go of the lock every few seconds, and gives up on
  /// it when another pane holds it too long: neither leaves a descriptor open (1,024 here; other
  /// tests of this process open files meanwhile, so the bound is loose: either leak would be 200).
  @Test func lockFile_takenAndGivenUpManyTimes_leavesNoDescriptorOpen() throws {
    let path = folder.appendingPathComponent("locks/last-price.lock").path
    _ = FileLock(path: path, waitingAtMost: .zero)
    let before = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count

    for _ in 1...200 {
      let lock = try #require(FileLock(path: path, waitingAtMost: .seconds(1)))
      withExtendedLifetime(lock) {}
    }
    let held = try #require(FileLock(path: path, waitingAtMost: .seconds(1)))
    for _ in 1...200 { #expect(FileLock(path: path, waitingAtMost: .zero) == nil) }
    withExtendedLifetime(held) {}

    let after = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count
    #expect(after - before < 125, "\(before) descriptors open before, \(after) after")
  }

  /// A status bar reads the cache every few seconds, and the limits file that is not there:
  /// neither read leaves a descriptor open, whatever it finds (a file, none, one too large).
  @Test func filesRead_manyTimes_leaveNoDescriptorOpen() throws {
    let url = folder.appendingPathComponent("last-price.json")
    let tooLarge = folder.appendingPathComponent("large.json")
    try write(cachedQuote(), to: url)
    try write(padded(cachedQuote(), to: 64 * 1024 + 1), to: tooLarge)
    let before = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count

    for _ in 1...200 {
      #expect(try FilePriceStore(fileURL: url, knownSources: []).load() != nil)
      #expect(try FileSourceLimitStore(fileURL: folder.appendingPathComponent("none")).load() == [])
      #expect(throws: FilePriceStore.Error.self) {
        try FilePriceStore(fileURL: tooLarge, knownSources: []).load()
      }
    }

    let after = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count
    #expect(after - before < 125, "\(before) descriptors open before, \(after) after")
  }

  /// Every run looks for writers' abandoned temporary files beside the cache: the folder it
  /// lists is closed again, however many times it looks.
  @Test func abandonedTemporaryFiles_lookedForManyTimes_leaveNoDescriptorOpen() throws {
    let url = folder.appendingPathComponent("last-price.json")
    try write(cachedQuote(), to: url)
    let store = FilePriceStore(fileURL: url, knownSources: [])
    let before = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count

    for _ in 1...200 { store.removeAbandonedTemporaryFiles(now: Date()) }

    let after = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count
    #expect(after - before < 125, "\(before) descriptors open before, \(after) after")
  }

  /// A pane waiting for the lock sleeps between its looks: it costs next to no CPU while it
  /// waits (a few milliseconds over 300 ms; looking without a pause would take all of them).
  @Test func lockFile_heldByAnother_isWaitedForAsleep() throws {
    let path = folder.appendingPathComponent("locks/last-price.lock").path
    let held = try #require(FileLock(path: path, waitingAtMost: .seconds(1)))
    defer { withExtendedLifetime(held) {} }

    let cpuBefore = Self.threadCPU()
    #expect(FileLock(path: path, waitingAtMost: .milliseconds(300)) == nil)
    let cpu = Self.threadCPU() - cpuBefore

    #expect(cpu < .milliseconds(100), "the wait took \(cpu) of CPU")
  }

  private static func threadCPU() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }

  /// A folder where the cache should be is not "nothing saved yet": it is said (the user, or
  /// a setting, pointed the cache at the wrong place), where a missing file or a path through a
  /// file is nothing saved.
  @Test func priceCache_thatIsAFolder_isUnreadableNotNothingSaved() throws {
    let url = folder.appendingPathComponent("cache/last-price.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)

    #expect(throws: FilePriceStore.Error.self) {
      try FilePriceStore(fileURL: url, knownSources: []).load()
    }
    let throughAFile = folder.appendingPathComponent("cache/last-price.json/inside/x.json")
    try Data().write(to: folder.appendingPathComponent("cache/last-price.json/inside"))
    #expect(try FilePriceStore(fileURL: throughAFile, knownSources: []).load() == nil)
  }

  // MARK: The price history's files

  /// A history file holds a chart's candles as this tool writes them: a period from a minute to
  /// a week, a source id of at most 40 characters, candles that start at or after 1970. A file
  /// outside those (edited by hand, written by another program) is corrupt, never a chart.
  @Test(arguments: [
    (period: 60, source: "binance", start: "1795356000", drawn: true),
    (period: 59, source: "binance", start: "1795356000", drawn: false),
    (period: 604_800, source: "binance", start: "1795356000", drawn: true),
    (period: 604_801, source: "binance", start: "1795356000", drawn: false),
    (period: 300, source: String(repeating: "s", count: 40), start: "1795356000", drawn: true),
    (period: 300, source: String(repeating: "s", count: 41), start: "1795356000", drawn: false),
    (period: 300, source: "binance", start: "0", drawn: true),
    (period: 300, source: "binance", start: "-1", drawn: false),
  ])
  func priceHistory_isDrawnOnlyWithinItsBounds(
    period: Int, source: String, start: String, drawn: Bool
  ) throws {
    let store = FileCandleStore(folder: folder, knownSources: [], currency: .usd)
    try write(
      #"{"candles":[["\#(start)","68901.23","68950","68880.5","68940"]],"currency":"USD","#
        + #""fetchedAt":"2026-11-22T14:07:00.250Z","period":\#(period),"#
        + #""source":"\#(source)","version":1}"#,
      to: store.fileURL(for: .day))

    if drawn {
      #expect(try store.load(.day)?.candles.count == 1)
    } else {
      #expect(throws: FilePriceStore.Error.self) { try store.load(.day) }
    }
  }

  /// A bad fetch time is quoted, cut at 40 characters, as the cache's own values are.
  @Test func priceHistory_quotesTheStartOfABadFetchTime() throws {
    let store = FileCandleStore(folder: folder, knownSources: [], currency: .usd)
    let long = String(repeating: "x", count: 39) + "yz"
    try write(
      #"{"candles":[],"currency":"USD","fetchedAt":"\#(long)","period":300,"#
        + #""source":"binance","version":1}"#,
      to: store.fileURL(for: .day))

    #expect {
      try store.load(.day)
    } throws: {
      "\($0)".hasSuffix(": fetchedAt \"\(long.prefix(40))\" is not ISO 8601")
    }
  }

  /// The history's temporary files go as the price cache's do: a killed writer's older than a
  /// minute, not one exactly a minute old (it may still be a writer's), for every range.
  @Test func priceHistory_removesTemporaryFilesOlderThanAMinute() throws {
    let store = FileCandleStore(folder: folder, knownSources: [], currency: .usd)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var kept: [String] = []
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for range in ChartRange.allCases {
      let name = store.fileURL(for: range).lastPathComponent
      for (writer, age) in [(1, 60.0), (2, 61.0)] {
        let path = folder.appendingPathComponent(".\(name).\(writer).1.tmp").path
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
          [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
      }
      kept.append(".\(name).1.1.tmp")
    }

    store.removeAbandonedTemporaryFiles(now: now)

    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names.sorted() == kept.sorted())
  }

  // MARK: The limits' state file

  @Test func limits_readAFileOf64KiBAndRefuseALargerOne() throws {
    let url = folder.appendingPathComponent("limits.json")
    try write(padded(limitsFile(source: "binance"), to: 64 * 1024), to: url)
    #expect(try FileSourceLimitStore(fileURL: url).load().map(\.source) == ["binance"])

    try write(padded(limitsFile(source: "binance"), to: 64 * 1024 + 1), to: url)
    #expect {
      try FileSourceLimitStore(fileURL: url).load()
    } throws: {
      "\($0)" == "ignoring corrupt state file \(url.path): file is 65537 bytes"
    }
  }

  @Test func limits_takeASourceOf40CharactersAndNoLongerOrEmptyOne() throws {
    let url = folder.appendingPathComponent("limits.json")
    let longest = String(repeating: "s", count: 40)
    try write(limitsFile(source: longest), to: url)
    #expect(try FileSourceLimitStore(fileURL: url).load().map(\.source) == [longest])

    for source in [longest + "s", ""] {
      try write(limitsFile(source: source), to: url)
      #expect {
        try FileSourceLimitStore(fileURL: url).load()
      } throws: {
        "\($0)" == "ignoring corrupt state file \(url.path): bad source"
      }
    }
  }

  /// A refusal quotes the bad value, cut: 40 characters of an instant, 20 of a kind.
  @Test func limits_quoteTheStartOfABadValue() throws {
    let url = folder.appendingPathComponent("limits.json")
    let long = String(repeating: "x", count: 39) + "yz"
    let cases = [
      (limitsFile(source: "binance", until: long), "until \"\(long.prefix(40))\" is not ISO 8601"),
      (limitsFile(source: "binance", kind: long), "unknown limit \(long.prefix(20))"),
    ]
    for (content, reason) in cases {
      try write(content, to: url)
      #expect {
        try FileSourceLimitStore(fileURL: url).load()
      } throws: {
        "\($0)" == "ignoring corrupt state file \(url.path): \(reason)"
      }
    }
  }

  @Test func limits_keepARefusalWithoutAMessageAsAnEmptyOne() throws {
    let url = folder.appendingPathComponent("limits.json")
    try write(limitsFile(source: "cryptocompare", kind: "refused", status: nil), to: url)

    #expect(try FileSourceLimitStore(fileURL: url).load().map(\.cause) == [.refused("")])
  }

  // MARK: Helpers

  /// Keeps a lock until another thread lets it go.
  private final class Holder: @unchecked Sendable {
    var lock: FileLock?
    init(_ lock: FileLock?) { self.lock = lock }
  }

  private func alertFile(rules count: Int) -> String {
    let rules = (0..<count).map { #""above:\#($0) USD":"armed""# }.joined(separator: ",")
    return #"{"version":1,"rules":{\#(rules)}}"#
  }

  private func cachedQuote(
    price: String = "68901.23", currency: String = "USD",
    timestamp: String = "2026-11-22T14:03:05Z", source: String = "binance"
  ) -> String {
    #"{"version":1,"price":"\#(price)","currency":"\#(currency)","timestamp":"\#(timestamp)","source":"\#(source)"}"#
  }

  private func limitsFile(
    source: String, until: String = "2026-11-22T14:03:05Z", kind: String = "httpStatus",
    status: Int? = 451
  ) -> String {
    let status = status.map { #","status":\#($0)"# } ?? ""
    return
      #"{"version":1,"limits":[{"source":"\#(source)","endpoint":"https://e","until":"\#(until)","kind":"\#(kind)"\#(status),"apiKeyGiven":false}]}"#
  }

  /// `json` followed by spaces, `size` bytes in all.
  private func padded(_ json: String, to size: Int) -> String {
    json + String(repeating: " ", count: size - json.utf8.count)
  }

  private func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
}
