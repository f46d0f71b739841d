import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// The store the history's tests stand in for the files: it keeps the same contract as
/// `FileCandleStore` (``CandleStoreSpecs``), so what those tests show holds for the real store.
@Suite("The in-memory history store keeps the store contract", .hangLimit(.seconds(30)))
struct InMemoryCandleStoreTests {
  @Test(arguments: ChartRange.allCases)
  func loadDeliversNothingWhenEmpty(range: ChartRange) throws {
    try CandleStoreSpecs.contract(InMemoryCandleStore(), range: range)
      .loadDeliversNothingWhenEmpty()
  }

  @Test func loadDeliversSavedHistoryExactly() throws {
    try CandleStoreSpecs.contract(InMemoryCandleStore()).loadDeliversSavedValueExactly()
  }

  @Test func saveReplacesPreviousHistory() throws {
    try CandleStoreSpecs.contract(InMemoryCandleStore()).saveReplacesPreviousValue()
  }

  @Test func saveKeepsTheRangesApart() throws {
    try CandleStoreSpecs.saveKeepsTheRangesApart(InMemoryCandleStore())
  }

  @Test func loadThrowsOnCorruptData() throws {
    let sut = InMemoryCandleStore()
    try CandleStoreSpecs.contract(sut).loadThrowsOnCorruptData { sut.failLoads("not JSON") }
  }

  @Test func saveThrowsAndKeepsPreviousHistoryWhenWritingFails() throws {
    let sut = InMemoryCandleStore()
    try CandleStoreSpecs.contract(sut).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: { sut.failSaves("disk full") }, restoreWriting: { sut.failSaves(nil) })
  }
}
