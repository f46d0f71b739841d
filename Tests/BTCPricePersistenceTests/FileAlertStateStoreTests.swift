import BTCPriceCore
import BTCPricePersistence
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Keep the alerts' state in a state file", .hangLimit(.seconds(30)))
final class FileAlertStateStoreTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("FileAlertStateStoreTests-\(UUID().uuidString)")
  var fileURL: URL { folder.appendingPathComponent("state/btc-price/alerts.json") }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: - The store contract

  @Test func contract_loadDeliversNothingWhenNoFileExists() throws {
    try AlertStateStoreSpecs.contract(makeSUT()).loadDeliversNothingWhenEmpty()
  }

  @Test func contract_loadDeliversWhatWasSavedExactly() throws {
    try AlertStateStoreSpecs.contract(makeSUT()).loadDeliversSavedValueExactly()
  }

  @Test func contract_saveReplacesWhatWasSaved() throws {
    try AlertStateStoreSpecs.contract(makeSUT()).saveReplacesPreviousValue()
  }

  @Test func contract_loadThrowsOnACorruptFile() throws {
    try AlertStateStoreSpecs.contract(makeSUT()).loadThrowsOnCorruptData {
      try FileManager.default.createDirectory(
        at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("not json".utf8).write(to: fileURL)
    }
  }

  @Test func contract_saveThrowsAndKeepsWhatWasSavedWhenTheFolderIsUnwritable() throws {
    let unwritable = UnwritableFolder(
      fileURL: fileURL, parking: folder.appendingPathComponent("moved"))
    try AlertStateStoreSpecs.contract(makeSUT()).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: unwritable.breakWriting, restoreWriting: unwritable.restoreWriting)
  }

  // MARK: - File specifics

  @Test func save_thenLoad_deliversEveryRuleAsItStood() throws {
    let states: [String: AlertArming] = ["above:100000 USD": .fired, "below:90000.5 EUR": .armed]

    try makeSUT().save(states)

    #expect(try makeSUT().load() == states)
    #expect(
      try String(contentsOf: fileURL, encoding: .utf8)
        == #"{"rules":{"above:100000 USD":"fired","below:90000.5 EUR":"armed"},"version":1}"#)
  }

  /// The same state is the same file, whatever order the process's dictionaries keep (Swift
  /// seeds their hashing per process): keys sorted, so that a user's diff or backup of the
  /// state folder sees no change where none was. Eight rules: two could come out in order by
  /// chance one time in two, eight almost never.
  @Test func save_writesEveryKeyInOrder() throws {
    let rules = (1...8).map { "above:\($0)0000 USD" }
    try makeSUT().save(Dictionary(uniqueKeysWithValues: rules.map { ($0, .armed) }))

    let members = rules.map { #""\#($0)":"armed""# }.joined(separator: ",")
    #expect(
      try String(contentsOf: fileURL, encoding: .utf8)
        == #"{"rules":{"# + members + #"},"version":1}"#)
  }

  @Test(arguments: [
    "not json", #"{"version":2,"rules":{}}"#, #"{"version":1,"rules":{"above:1 USD":"maybe"}}"#,
  ])
  func load_refusesAFileThatIsNotOurs(content: String) throws {
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(content.utf8).write(to: fileURL)

    #expect {
      try self.makeSUT().load()
    } throws: {
      "\($0)".hasPrefix("ignoring corrupt alert state file \(self.fileURL.path)")
    }
  }

  @Test func theDefaultFile_isNextToTheLimitsInTheStateFolder() {
    let url = FileAlertStateStore.defaultFileURL(environment: ["XDG_STATE_HOME": "/s"])

    #expect(url.path == "/s/btc-price/alerts.json")
  }

  private func makeSUT() -> FileAlertStateStore {
    FileAlertStateStore(fileURL: fileURL)
  }
}
