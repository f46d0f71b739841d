import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// The store the history's tests stand in for the files: it keeps the same contract as
/// `FileCandleStore` (``CandleStoreSpecs``), so what those tests show holds for the real store.
@Suite("The in-memory history store keeps the store contract")
struct InMemoryCandleStoreTests {
  @Test func loadDeliversNothingWhenEmpty() throws {
    try CandleStoreSpecs.loadDeliversNothingWhenEmpty(InMemoryCandleStore())
  }

  @Test func loadDeliversSavedHistoryExactly() throws {
    try CandleStoreSpecs.loadDeliversSavedHistoryExactly(InMemoryCandleStore())
  }

  @Test func saveReplacesPreviousHistoryOfTheRangeOnly() throws {
    try CandleStoreSpecs.saveReplacesPreviousHistoryOfTheRangeOnly(InMemoryCandleStore())
  }

  @Test func loadThrowsOnCorruptData() throws {
    let sut = InMemoryCandleStore()
    try CandleStoreSpecs.loadThrowsOnCorruptData(sut) { sut.failLoads("not JSON") }
  }

  @Test func saveThrowsAndKeepsPreviousHistoryWhenWritingFails() throws {
    let sut = InMemoryCandleStore()
    try CandleStoreSpecs.saveThrowsAndKeepsPreviousHistoryWhenWritingFails(
      sut, breakWriting: { sut.failSaves("disk full") }, restoreWriting: { sut.failSaves(nil) })
  }
}
