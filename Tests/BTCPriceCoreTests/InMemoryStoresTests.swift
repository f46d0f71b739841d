import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// The stores the limit and alert tests stand in for the state files: they keep the same
/// contracts as `FileSourceLimitStore` and `FileAlertStateStore` (``SourceLimitStoreSpecs``,
/// ``AlertStateStoreSpecs``), so what those tests show holds for the real stores.
@Suite(
  "The in-memory limit and alert-state stores keep the store contract", .hangLimit(.seconds(30)))
struct InMemoryStoresTests {
  @Test func limitStore_keepsTheContract() throws {
    try SourceLimitStoreSpecs.contract(InMemorySourceLimitStore()).loadDeliversNothingWhenEmpty()
    try SourceLimitStoreSpecs.contract(InMemorySourceLimitStore()).loadDeliversSavedValueExactly()
    try SourceLimitStoreSpecs.contract(InMemorySourceLimitStore()).saveReplacesPreviousValue()
    let unreadable = InMemorySourceLimitStore()
    try SourceLimitStoreSpecs.contract(unreadable).loadThrowsOnCorruptData {
      unreadable.failLoads("not JSON")
    }
    let full = InMemorySourceLimitStore()
    try SourceLimitStoreSpecs.contract(full).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: { full.failSaves("disk full") }, restoreWriting: { full.failSaves(nil) })
  }

  @Test func alertStateStore_keepsTheContract() throws {
    try AlertStateStoreSpecs.contract(InMemoryAlertStateStore()).loadDeliversNothingWhenEmpty()
    try AlertStateStoreSpecs.contract(InMemoryAlertStateStore()).loadDeliversSavedValueExactly()
    try AlertStateStoreSpecs.contract(InMemoryAlertStateStore()).saveReplacesPreviousValue()
    let unreadable = InMemoryAlertStateStore()
    try AlertStateStoreSpecs.contract(unreadable).loadThrowsOnCorruptData {
      unreadable.failLoads("not JSON")
    }
    let full = InMemoryAlertStateStore()
    try AlertStateStoreSpecs.contract(full).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: { full.failSaves("disk full") }, restoreWriting: { full.failSaves(nil) })
  }
}
