import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// The store the feed and cache tests stand in for the file: it keeps the same contract as
/// `FilePriceStore` (``PriceStoreSpecs``), so what those tests show holds for the real store.
@Suite("The in-memory store keeps the store contract", .hangLimit(.seconds(30)))
struct InMemoryPriceStoreTests {
  @Test func loadDeliversNothingWhenEmpty() throws {
    try PriceStoreSpecs.contract(InMemoryPriceStore()).loadDeliversNothingWhenEmpty()
  }

  @Test func loadDeliversSavedQuoteExactly() throws {
    try PriceStoreSpecs.contract(InMemoryPriceStore()).loadDeliversSavedValueExactly()
  }

  @Test func saveReplacesPreviousQuote() throws {
    try PriceStoreSpecs.contract(InMemoryPriceStore()).saveReplacesPreviousValue()
  }

  @Test func loadThrowsOnCorruptData() throws {
    let sut = InMemoryPriceStore()
    try PriceStoreSpecs.contract(sut).loadThrowsOnCorruptData { sut.failLoads("not JSON") }
  }

  @Test func saveThrowsAndKeepsPreviousQuoteWhenWritingFails() throws {
    let sut = InMemoryPriceStore()
    try PriceStoreSpecs.contract(sut).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: { sut.failSaves("disk full") }, restoreWriting: { sut.failSaves(nil) })
  }

  @Test func failingSaves_failOnlyThatMany() throws {
    let sut = InMemoryPriceStore(saveError: "disk full", failingSaves: 1)

    #expect(throws: InMemoryPriceStore.Failure.self) { try sut.save(PriceStoreSpecs.sample) }
    try sut.save(PriceStoreSpecs.newer)

    #expect(sut.savedQuotes == [PriceStoreSpecs.newer])
  }
}
