import BTCPriceCore
import BTCPricePersistence
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Keep the sources' limits in a state file", .hangLimit(.seconds(30)))
final class FileSourceLimitStoreTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("FileSourceLimitStoreTests-\(UUID().uuidString)")
  var fileURL: URL { folder.appendingPathComponent("state/btc-price/limits.json") }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: - The store contract

  @Test func contract_loadDeliversNothingWhenNoFileExists() throws {
    try SourceLimitStoreSpecs.contract(makeSUT()).loadDeliversNothingWhenEmpty()
  }

  @Test func contract_loadDeliversWhatWasSavedExactly() throws {
    try SourceLimitStoreSpecs.contract(makeSUT()).loadDeliversSavedValueExactly()
  }

  @Test func contract_saveReplacesWhatWasSaved() throws {
    try SourceLimitStoreSpecs.contract(makeSUT()).saveReplacesPreviousValue()
  }

  @Test func contract_loadThrowsOnACorruptFile() throws {
    try SourceLimitStoreSpecs.contract(makeSUT()).loadThrowsOnCorruptData {
      try FileManager.default.createDirectory(
        at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("{garbage".utf8).write(to: fileURL)
    }
  }

  @Test func contract_saveThrowsAndKeepsWhatWasSavedWhenTheFolderIsUnwritable() throws {
    let unwritable = UnwritableFolder(
      fileURL: fileURL, parking: folder.appendingPathComponent("moved"))
    try SourceLimitStoreSpecs.contract(makeSUT()).saveThrowsAndKeepsPreviousValueWhenWritingFails(
      breakWriting: unwritable.breakWriting, restoreWriting: unwritable.restoreWriting)
  }

  // MARK: - File specifics

  @Test func save_thenLoad_deliversEveryKindOfLimitExactly() throws {
    let until = Date(timeIntervalSince1970: 1_795_356_785.25)
    let limits = [
      SourceLimit(
        source: "binance", endpoint: "https://api.binance.com", until: until,
        cause: .rateLimited(status: 418, retryAfter: .seconds(600), message: "banned"),
        apiKeyGiven: false),
      SourceLimit(
        source: "cryptocompare", endpoint: "https://min-api.cryptocompare.com", until: until,
        cause: .refused("You need a valid auth key"), apiKeyGiven: false),
      SourceLimit(
        source: "kraken", endpoint: "http://127.0.0.1:8080", until: until,
        cause: .httpStatus(451, message: nil), apiKeyGiven: true),
    ]

    try makeSUT().save(limits)

    let loaded = try makeSUT().load()
    #expect(loaded.map(\.source) == ["binance", "cryptocompare", "kraken"])
    #expect(loaded.map(\.until) == [until, until, until])
    // Retry-After was turned into `until`; the rest comes back as it was.
    #expect(loaded[0].cause == .rateLimited(status: 418, retryAfter: nil, message: "banned"))
    #expect(Array(loaded[1...]) == Array(limits[1...]))
  }

  /// The same limits are the same file, whatever order the process's dictionaries keep (Swift
  /// seeds their hashing per process): every object's keys sorted, so that a user's diff or
  /// backup of the state folder sees no change where none was.
  @Test func save_writesEveryKeyInOrder() throws {
    try makeSUT().save([
      SourceLimit(
        source: "kraken", endpoint: "http://127.0.0.1:8080",
        until: Date(timeIntervalSince1970: 1_795_356_785.25),
        cause: .httpStatus(451, message: "Unavailable For Legal Reasons"), apiKeyGiven: true)
    ])

    #expect(
      try String(contentsOf: fileURL, encoding: .utf8)
        == #"{"limits":[{"apiKeyGiven":true,"endpoint":"http:\/\/127.0.0.1:8080","#
        + #""kind":"httpStatus","message":"Unavailable For Legal Reasons","source":"kraken","#
        + #""status":451,"until":"2026-11-22T14:13:05.250Z"}],"version":1}"#)
  }

  @Test(arguments: [
    "{garbage", #"{"version":2,"limits":[]}"#, String(repeating: " ", count: 70_000),
  ])
  func load_throwsWithThePathOnACorruptFile(content: String) throws {
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(content.utf8).write(to: fileURL)

    #expect {
      try self.makeSUT().load()
    } throws: { error in
      "\(error)".hasPrefix("ignoring corrupt state file \(self.fileURL.path)")
    }
  }

  @Test func defaultFileURL_followsXDGStateHomeThenHome() {
    #expect(
      FileSourceLimitStore.defaultFileURL(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path
        == "/s/btc-price/limits.json")
    #expect(
      FileSourceLimitStore.defaultFileURL(environment: ["HOME": "/h"]).path
        == "/h/.local/state/btc-price/limits.json")
    #expect(
      FileSourceLimitStore.defaultFileURL(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).path
        == "/h/.local/state/btc-price/limits.json")
  }

  /// Apple platforms keep state in Application Support, unless `XDG_STATE_HOME` says otherwise:
  /// a set variable wins on a Mac too.
  @Test func defaultFileURL_prefersXDGStateHomeToThePlatformsDefault() {
    let applicationSupport = URL(fileURLWithPath: "/Users/a/Library/Application Support")
      .appendingPathComponent("btc-price").appendingPathComponent("limits.json")
    #expect(
      FileSourceLimitStore.defaultFileURL(
        environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"], platformDefault: applicationSupport
      ).path == "/s/btc-price/limits.json")
    #expect(
      FileSourceLimitStore.defaultFileURL(
        environment: ["HOME": "/h"], platformDefault: applicationSupport) == applicationSupport)
    #expect(
      FileSourceLimitStore.defaultFileURL(
        environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"], platformDefault: applicationSupport)
        == applicationSupport, "a relative XDG_STATE_HOME is ignored, as the spec says")
  }

  @Test func defaultFileURL_putsTheStateInTheUnitsStateDirectoryFirst() {
    let environment = ["STATE_DIRECTORY": "/var/lib/btc-price", "XDG_STATE_HOME": "/s"]

    #expect(
      FileSourceLimitStore.defaultFileURL(environment: environment).path
        == "/var/lib/btc-price/limits.json")
    #expect(
      FileAlertStateStore.defaultFileURL(environment: environment).path
        == "/var/lib/btc-price/alerts.json")
  }

  private func makeSUT() -> FileSourceLimitStore {
    FileSourceLimitStore(fileURL: fileURL)
  }
}
