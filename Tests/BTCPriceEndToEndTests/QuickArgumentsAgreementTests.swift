import BTCPriceCommandLine
import BTCPriceTestSupport
import Testing

@testable import btc_price

/// The quick reader (``RootArguments/read(_:)``, which spares plain command lines
/// ArgumentParser's reflective parse) against ArgumentParser itself: whatever the quick reader
/// reads, ArgumentParser must read the same, or a status bar's `--once` would mean something
/// else than the manual says.
@Suite("Read plain command lines without ArgumentParser, the same way", .hangLimit(.seconds(30)))
struct QuickArgumentsAgreementTests {
  /// The command lines the manual, the status-bar guide and scripts use must take the quick
  /// path; each must also mean what ArgumentParser makes of it.
  @Test(
    arguments: [
      [], ["--once"], ["--once", "--json"], ["--json"], ["--live"], ["-v"], ["--verbose"],
      ["--once", "--max-age", "10", "--format", "{arrow} {price}"],
      ["--waybar", "--format", "₿ {price}"], ["--count", "10", "--interval", "0.5"],
      ["--sources", "coinbase,kraken"], ["--currency", "EUR", "--once"],
      ["--once", "--no-history", "--no-stream", "--no-cache"],
      ["--binance-url=http://127.0.0.1:8080/ticker", "--once"],
      ["--alert", "above:100000", "--alert", "move:2%/15m", "--on-alert", "notify-send hi"],
    ])
  func theCommonCommandLines_takeTheQuickPath(_ argv: [String]) throws {
    let quick = try #require(RootArguments.read(argv), "\(argv) left to ArgumentParser")
    let parsed = try #require(try BTCPriceCommand.parseAsRoot(argv) as? BTCPriceCommand)
    #expect(quick == parsed.arguments, "\(argv)")
  }

  /// What each option sets, written out once, so that a mapping wrong in both readers alike is
  /// still caught.
  @Test func theQuickPath_setsWhatEachOptionSays() throws {
    let argv = [
      "--once", "--json", "--no-stream", "--history", "--sources", "kraken", "--alert", "a",
      "--alert=b", "--config", "c.yaml", "-v", "--notify", "--max-age", "2.5", "--kraken-url",
      "http://k",
    ]
    let quick = try #require(RootArguments.read(argv))
    var expected = RootArguments()
    expected.settings = [
      "stream": "false", "history": "true", "sources": "kraken", "alert": "a,b",
      "kraken-url": "http://k",
    ]
    expected.config = "c.yaml"
    (expected.once, expected.json, expected.verbose, expected.notify) = (true, true, true, true)
    expected.maxAge = 2.5
    #expect(quick == expected)
  }

  /// Help, version, subcommands, refusals and whatever is unusual stay ArgumentParser's, so
  /// their text and exit status are its own.
  @Test(
    arguments: [
      ["--help"], ["-h"], ["--version"], ["help"], ["serve"], ["doctor", "--once"], ["chart"],
      ["--count", "0"], ["--once", "--count", "2"], ["--json", "--live"],
      ["--max-age", "10"], ["--once", "--max-age", "10", "--no-cache"],
      ["--no-cache", "--cache-path", "x"], ["--json", "--format", "{price}"],
      ["--interval="], ["--interval"], ["--interval", "--once"], ["--count", "ten"],
      ["--json=true"], ["--once", "--once"], ["--stream", "--no-stream"], ["-v", "--verbose"],
      ["--unknown"], ["--"], ["-"], ["--generate-completion-script", "bash"], ["-vv"],
      ["--proxy", ""], ["--currency", "EUR", "--currency", "USD"],
    ])
  func theRest_isLeftToArgumentParser(_ argv: [String]) {
    #expect(RootArguments.read(argv) == nil, "\(argv)")
  }

  /// Every option the quick reader knows, ArgumentParser knows for the price lines; and every
  /// option of theirs but `--help` and `--version` is known quickly (a new option left out is
  /// not wrong, only slow: this says so).
  @Test func theQuickReader_knowsTheCommandsOptions() {
    let help = BTCPriceCommand.helpMessage(columns: 400)
    let options =
      help.components(separatedBy: "OPTIONS:").last?
      .components(separatedBy: "SUBCOMMANDS:").first ?? ""
    var names = Set<String>()
    for line in options.split(separator: "\n") {
      for word in line.split(whereSeparator: { " ,<>/".contains($0) }) where word.hasPrefix("--") {
        let name = word.dropFirst(2)
        // `--once:` in a discussion names an option, it does not declare one.
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-[]".contains($0) }) else {
          continue
        }
        if name.hasPrefix("[no-]") {
          names.insert(String(name.dropFirst(5)))
          names.insert("no-" + name.dropFirst(5))
        } else {
          names.insert(String(name))
        }
      }
    }
    names.subtract(["help", "version"])
    #expect(names.count > 30, "read the options from the help: \(names.sorted())")
    #expect(RootArguments.optionNames == names)
  }

  /// Hundreds of command lines made of the options' spellings and awkward values: each one the
  /// quick reader reads, ArgumentParser reads too, to the same arguments.
  @Test func everyCommandLineReadQuickly_readsTheSameThroughArgumentParser() throws {
    let names = RootArguments.optionNames.sorted()
    let values = [
      "1", "10", "0.5", "0", "-1", "+3", "1e3", "0x10", " 5", "nan", "inf", "ten", "", "=",
      "a=b", "serve", "{price}", "http://127.0.0.1:1/x", "EUR", "above:1", "--once", "-v",
    ]
    let words = ["serve", "help", "-v", "-h", "--", "--json=true", "--nope", "x"]
    var random = SplitMix(seed: 0x5EED)
    var read = 0
    for _ in 0..<300 {
      var argv: [String] = []
      for _ in 0..<random.below(6) {
        switch random.below(10) {
        case 0: argv.append(words[random.below(words.count)])
        case 1...3:
          argv.append("--\(names[random.below(names.count)])=\(values[random.below(values.count)])")
        default:
          argv.append("--\(names[random.below(names.count)])")
          if random.below(3) > 0 { argv.append(values[random.below(values.count)]) }
        }
      }
      guard let quick = RootArguments.read(argv) else { continue }
      read += 1
      let parsed = try? BTCPriceCommand.parseAsRoot(argv) as? BTCPriceCommand
      #expect(parsed?.arguments == quick, "\(argv)")
    }
    #expect(read > 25, "only \(read) command lines were read quickly: the test tests little")
  }
}
