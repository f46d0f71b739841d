import BTCPriceCore
import BTCPriceSettings
import BTCPriceTestSupport
import Foundation
import Testing

/// What a hand-written settings file may hold, read as YAML reads it, and the file's own limits:
/// each test here was written for a survivor of `scripts/mutate` (docs/MUTATION.md, Settings).
@Suite("Read a hand-written settings file", .hangLimit(.seconds(30)))
struct ReadAHandWrittenSettingsFileUseCaseTests {
  // MARK: What YAML allows

  @Test func aFileSavedWithAByteOrderMark_readsItsFirstKey() throws {
    let settings = try parse("\u{FEFF}currency: EUR\ninterval: 5\n")

    #expect(settings.currency == .eur)
    #expect(settings.interval == 5)
  }

  // Found by the settings fuzz target (Fuzz/Findings/settings): a Character holds `\r\n` whole.
  @Test func aFileSavedWithWindowsLineEndings_readsEveryLine() throws {
    let settings = try parse("currency: EUR\r\ninterval: 5\r\nsources:\r\n  - kraken\r\n")

    #expect(settings.currency == .eur)
    #expect(settings.interval == 5)
    #expect(settings.sources == ["kraken"])
  }

  @Test func twoListsOneAfterTheOther_areBothRead() throws {
    let settings = try parse("sources:\n  - kraken\nalert:\n  - above:100000\n")

    #expect(settings.sources == ["kraken"])
    #expect(settings.alerts?.map(\.description) == ["above:100000"])
  }

  @Test func aDoubleQuotedValue_takesEveryEscapeYAMLDefines() throws {
    let settings = try parse(#"on-alert: "say \"hi\" \\ \/ \n\t\r\0 done""# + "\n")

    #expect(settings.onAlert == "say \"hi\" \\ / \n\t\r\0 done")
  }

  @Test(
    arguments: [
      (#"on-alert: "say #1" # a comment"#, "say #1"),
      (#"on-alert: "a \"b #2\" c" # a comment"#, #"a "b #2" c"#),
      (#"on-alert: "odd" # a comment"#, "odd"),
      (#"on-alert: "even" # a comment"#, "even"),
      // In single quotes a backslash is a letter: the quote after it ends the value.
      (#"on-alert: 'C:\' # a comment"#, #"C:\"#),
    ])
  func aHashInsideQuotes_isPartOfTheValueAndOneAfterThemIsAComment(line: String, value: String)
    throws
  {
    #expect(try parse(line + "\n").onAlert == value)
  }

  @Test(
    arguments: [
      ("sources:\n  - kraken\ninterval: 5\n  - 6\n", 4, "an indented line outside a list"),
      ("sources:\n  \t- kraken\n", 2, "a tab before the text (indent with spaces)"),
      ("currency EUR\n", 1, "must hold `key: value` lines"),
      (": 5\n", 1, "must hold `key: value` lines"),
      ("cache-path: '\n", 1, "a quoted value must end with its quote on its line"),
      ("format: 'abc''\n", 1, "a quote inside '…' is written ''"),
      ("format: \"{price}\\\n", 1, "a quoted value must end with its quote on its line"),
    ])
  func textThatIsNotASetting_isRefusedWithItsLine(text: String, line: Int, problem: String) {
    #expect {
      try SettingsFile(path: "/config").parse(text, home: nil)
    } throws: { error in
      let description = (error as? SettingsError)?.description
      if description != "/config:\(line): \(problem)" { print("got: \(error)") }
      return description == "/config:\(line): \(problem)"
    }
  }

  @Test func aListsEmptyItem_isAnEmptyValue() {
    #expect {
      try parse("alert:\n  - above:1\n  -\n")
    } throws: { error in
      "\(error)".hasPrefix(#"/config:1: alert: invalid alert rule "":"#)
    }
  }

  // MARK: The values' limits

  @Test(arguments: [("0.001", 0.001), ("86400", 86_400)])
  func primaryTimeout_acceptsAnyPositiveTimeUpToADay(text: String, seconds: Double) throws {
    #expect(try parse("primary-timeout: \(text)\n").primaryTimeout == seconds)
  }

  @Test(arguments: ["0", "86400.001"])
  func primaryTimeout_refusesNoTimeAndMoreThanADay(text: String) {
    #expect {
      try parse("primary-timeout: \(text)\n")
    } throws: { error in
      "\(error)"
        == "/config:1: primary-timeout: must be a positive number of seconds up to 86400, got \"\(text)\""
    }
  }

  @Test func aRefusedValue_isQuotedWholeUpTo40CharactersAndCutAfter() {
    let forty = String(repeating: "x", count: 40)
    for (text, shown) in [(forty, forty), (forty + "y", forty + "…")] {
      #expect {
        try parse("interval: \(text)\n")
      } throws: { error in
        "\(error)"
          == "/config:1: interval: must be a number of seconds from 0.01 to 86400, got \"\(shown)\""
      }
    }
  }

  // MARK: The file

  @Test func aFileOfExactly64KiB_isRead() throws {
    try withFile(Self.text(ofSize: SettingsFile.maximumSize)) { file in
      let settings = try file.load(home: nil)
      #expect(settings.interval == 5)
    }
  }

  @Test func aFileLargerThan64KiB_isRefused() throws {
    try withFile(Self.text(ofSize: 64 * 1024 + 1)) { file in
      #expect {
        try file.load(home: nil)
      } throws: { error in
        "\(error)" == "\(file.path): is larger than 64 KiB"
      }
    }
  }

  @Test func aFileOfOneCharacter_isReadToo() throws {
    try withFile("x") { file in
      #expect {
        try file.load(home: nil)
      } throws: { error in
        "\(error)" == "\(file.path):1: must hold `key: value` lines"
      }
    }
  }

  @Test func aSettingsPathThroughAFile_isNoSettings() throws {
    try withFile("interval: 5\n") { file in
      let settings = try SettingsFile(path: file.path + "/config").load(home: nil)
      #expect(settings == Settings())
    }
  }

  @Test func aSettingsFileThatIsASymbolicLinkToItself_cannotBeRead() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appending(path: "config").path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)

    #expect {
      try SettingsFile(path: path).load(home: nil)
    } throws: { error in
      "\(error)" == "\(path): cannot be read: Too many levels of symbolic links"
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "Linux's /proc"))
  func loadingTheFile_leavesItClosed() throws {
    try withFile("interval: 5\n") { file in
      _ = try file.load(home: nil)

      let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
      let open = descriptors.compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
      }
      #expect(!open.contains(file.path))
    }
  }

  // MARK: Printing the settings

  @Test func printedSettings_showEachSetValueOnItsOwnLineInTheFilesOrder() throws {
    let settings = try parse(
      """
      coinbase-candles-url: https://coinbase.example/candles
      history: false
      kraken-candles-url: https://kraken.example/ohlc
      stream: false
      kraken-stream-url: wss://kraken.example/v2
      alert-webhook: https://ntfy.sh/topic
      on-alert: say hi
      alert: [above:100000, below:90000]
      ca-file: /etc/ca.pem
      no-proxy: .corp
      proxy: http://proxy.corp:3128
      cache-path: /tmp/last.json
      cryptocompare-api-key: s3cr3t
      kraken-url: http://kraken.example/ticker
      coinbase-url: http://coinbase.example/spot
      format: "{price}"
      primary-timeout: 0.5
      interval: 5
      currency: EUR
      sources: kraken, coinbase
      binance-stream-url: wss://binance.example/ws
      """)

    #expect(
      "\(settings)" == """
        sources: kraken,coinbase
        currency: EUR
        interval: 5.0
        primary-timeout: 0.5
        format: {price}
        coinbase-url: http://coinbase.example/spot
        kraken-url: http://kraken.example/ticker
        cryptocompare-api-key: <redacted>
        cache-path: /tmp/last.json
        proxy: http://proxy.corp:3128
        no-proxy: .corp
        ca-file: /etc/ca.pem
        alert: [above:100000, below:90000]
        on-alert: say hi
        alert-webhook: https://ntfy.sh/topic
        stream: false
        binance-stream-url: wss://binance.example/ws
        kraken-stream-url: wss://kraken.example/v2
        history: false
        coinbase-candles-url: https://coinbase.example/candles
        kraken-candles-url: https://kraken.example/ohlc
        """)
  }

  // MARK: Helpers

  private func parse(_ text: String) throws -> Settings {
    try SettingsFile(path: "/config").parse(text, home: nil)
  }

  /// `interval: 5` and a comment line, `size` bytes in all.
  private static func text(ofSize size: Int) -> String {
    let setting = "interval: 5\n"
    return setting + "#" + String(repeating: "-", count: size - setting.utf8.count - 2) + "\n"
  }

  private static func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "btc-price-settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  private func withFile(_ text: String, _ body: (SettingsFile) throws -> Void) throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appending(path: "config")
    try Data(text.utf8).write(to: url)
    try body(SettingsFile(path: url.path))
  }
}
