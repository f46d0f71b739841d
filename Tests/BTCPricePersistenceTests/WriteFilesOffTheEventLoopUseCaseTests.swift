import BTCPriceCore
import BTCPricePersistence
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// `BackgroundStoreWriter`: the stores' files are written on a thread of their own; the caller
/// (the tool's event loop) hands a write over and goes on, and a disk that stalls costs memory
/// for one waiting write per file, not one per tick.
@Suite("Write the files off the event loop", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WriteFilesOffTheEventLoopUseCaseTests {
  @Test func aWrite_isHandedOverAndRunsOnTheWritersThread() async {
    let sut = BackgroundStoreWriter()
    let disk = StalledDisk()
    let owner = FileOwner()

    sut.writer.write(for: owner) { disk.write("cache 1") }
    #expect(disk.hasStalled(), "the caller did not wait")
    disk.wakeUp()
    await sut.finish()

    #expect(disk.written == ["cache 1"])
  }

  @Test func whileTheDiskStalls_aNewerWriteOfAFileReplacesTheOneWaiting() async {
    let sut = BackgroundStoreWriter()
    let disk = StalledDisk()
    let (cache, limits) = (FileOwner(), FileOwner())
    sut.writer.write(for: cache) { disk.write("cache 1") }
    #expect(disk.hasStalled())

    sut.writer.write(for: cache) { disk.write("cache 2") }
    sut.writer.write(for: limits) { disk.write("limits 1") }
    sut.writer.write(for: cache) { disk.write("cache 3") }
    #expect(!sut.waitUntilIdle(atMost: .milliseconds(20)), "the disk still stalls")
    disk.wakeUp()
    await sut.finish()

    #expect(disk.written == ["cache 1", "cache 3", "limits 1"])
  }

  @Test func whileTheDiskStalls_twoFilesOfOneOwnerEachKeepTheirNewestWrite() async {
    // The price history keeps a file per range: the week's write never replaces the day's.
    let sut = BackgroundStoreWriter()
    let disk = StalledDisk()
    let (cache, history) = (FileOwner(), FileOwner())
    sut.writer.write(for: cache) { disk.write("cache 1") }
    #expect(disk.hasStalled())

    sut.writer.write(for: history, file: "24h") { disk.write("24h 1") }
    sut.writer.write(for: history, file: "7d") { disk.write("7d 1") }
    sut.writer.write(for: history, file: "24h") { disk.write("24h 2") }
    disk.wakeUp()
    await sut.finish()

    #expect(disk.written == ["cache 1", "24h 2", "7d 1"])
  }

  @Test func finish_returnsAtOnceWhenNothingWaits() async {
    let sut = BackgroundStoreWriter()

    await sut.finish()

    #expect(sut.waitUntilIdle(atMost: .zero))
  }

  @Test func theCache_writtenThroughIt_endsWithTheNewestQuoteAfterFinish() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "WriteFilesOffTheEventLoop-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FilePriceStore(
      fileURL: folder.appendingPathComponent("last-price.json"), knownSources: [])
    let sut = BackgroundStoreWriter()
    let cache = PriceCache(
      store: store, clock: SteppedTestClock(), minimumInterval: .zero, writer: sut.writer)

    for cents in 1...50 {
      cache.record(
        PriceQuote(
          value: Decimal(68_900) + Decimal(cents) / 100,
          timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: .binance))
    }
    cache.flush()
    await sut.finish()

    #expect(try store.load()?.value == Decimal(string: "68900.5"))
  }
}

/// Something that keeps a file: writes are told apart by their owner.
private final class FileOwner: Sendable {}

/// A disk whose first write stalls, as one waking up or under load does.
private final class StalledDisk: Sendable {
  private let stall = Stall()
  private let state = Locked<[String]>([])

  var written: [String] { state.value }

  func hasStalled() -> Bool { stall.hasStalled() }

  func wakeUp() { stall.release() }

  func write(_ what: String) {
    stall.pass()
    state.append(what)
  }
}
