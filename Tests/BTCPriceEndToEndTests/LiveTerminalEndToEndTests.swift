import BTCPriceTestSupport
import Foundation
import Testing

/// `btc-price --live` and colours under a real pseudo-terminal (scripts/pty-run.py, Python's
/// `pty` module), against the fake exchange.
extension BinaryEndToEndTests {
  @Suite("btc-price in a terminal", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct LiveTerminalEndToEndTests {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"

    @Test func live_redrawsThePanelInPlaceAndRestoresTheCursorAfterSIGINT() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance, .binance(price: "68901.23"), .binance(price: "68950.00"),
          FakeResponse(status: 500, json: "{}"),
          .binance(price: "68800.00"))
        await server.stub(.cryptoCompare, FakeResponse(status: 500, json: "{}"))

        let run = try await runInTerminal(
          server, ["--live", "--interval", "0.3"], interruptAfterPanels: 4)

        #expect(run.status == 130)
        #expect(run.output.hasPrefix(Self.hideCursor))
        #expect(
          run.output.hasSuffix(Self.showCursor),
          "cursor not restored: \(run.output.suffix(40).debugDescription)")
        #expect(run.output.components(separatedBy: "BTC/USD").count - 1 >= 4)
        #expect(run.output.contains("\u{1B}[4F"), "the second panel moves up over the first")
        #expect(run.output.contains("\u{1B}[32m▲ +$48.77 (+0.07%)\u{1B}[0m since last tick"))
        #expect(
          run.output.contains(
            "\u{1B}[30;43mFailed to update value. Displaying last updated value from "))
        #expect(run.output.contains("▁█"), "sparkline of the first two ticks")
      }
    }

    @Test(arguments: [("INT", 130), ("TERM", 0)])
    func live_restoresTheCursorOnEverySignal(signal: String, expectedStatus: Int) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try await runInTerminal(
          server, ["--live", "--interval", "0.3"], interruptAfterPanels: 2, signal: signal)

        #expect(run.status == expectedStatus)
        #expect(run.output.hasPrefix(Self.hideCursor))
        #expect(run.output.hasSuffix(Self.showCursor))
      }
    }

    @Test func live_withNoColor_drawsThePanelWithoutColours() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"), .binance(price: "68950.00"))

        let run = try await runInTerminal(
          server, ["--live", "--interval", "0.3", "--count", "2"], environment: ["NO_COLOR": "1"])

        #expect(run.status == 0)
        #expect(run.output.contains("▲ +$48.77 (+0.07%) since last tick"))
        #expect(!run.output.contains("\u{1B}[3"), "no colour codes")
        #expect(run.output.hasSuffix(Self.showCursor))
      }
    }

    @Test func live_inANarrowTerminal_dropsTheSparkline() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"), .binance(price: "68950.00"))

        let run = try await runInTerminal(
          server, ["--live", "--interval", "0.3", "--count", "2"], columns: 40)

        #expect(run.status == 0)
        #expect(run.output.contains("Updated "))
        #expect(!run.output.contains("low $"))
      }
    }

    /// With the price history: a tall terminal shows the day's chart (title, time axis, the
    /// 24-hour change as its last line) in the sparkline's place; a short one the sparkline and
    /// the change on the changes' line.
    @Test(arguments: [(rows: 40, chart: true), (rows: 9, chart: false)])
    func live_showsTheDaysChartOnlyInATallEnoughTerminal(rows: Int, chart: Bool) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"), .binance(price: "68950.00"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        let run = try await runInTerminal(
          server, ["--live", "--history", "--interval", "0.3", "--count", "2"], rows: rows,
          environment: ["NO_COLOR": "1", "TZ": "UTC"])

        #expect(run.status == 0)
        #expect(run.output.contains("BTC/USD, last 24 hours · Binance") == chart)
        #expect(run.output.contains("$68,000.00 ") == chart, "the chart's low beside it")
        #expect(run.output.contains("low $68,901.23  high $68,950.00") == !chart, "the sparkline")
        #expect(run.output.contains("▲ +$950.00 (+1.40%) in 24 hours"))
      }
    }

    @Test func plainLinesOnATerminal_paintRisesGreen() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"), .binance(price: "68950.00"))

        let run = try await runInTerminal(server, ["--interval", "0.3", "--count", "2"])

        #expect(run.status == 0)
        #expect(run.output.contains(" - \u{1B}[32m$68,950.00\u{1B}[0m"))
        #expect(!run.output.contains(Self.hideCursor))
      }
    }

    @Test func live_inAPipe_fallsBackToPlainLinesWithANote() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(
          ["--live", "--once", "--no-cache"] + server.urlArguments,
          environment: ["TERM": "xterm-256color"])

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 1)
        #expect(run.stdoutText[0].hasSuffix(" - $68,901.23"))
        #expect(!run.stdoutText[0].contains("\u{1B}"), "no escape codes in a pipe")
        #expect(
          run.stderrText
            == "btc-price: note: --live needs a terminal; printing plain lines instead\n"
        )
      }
    }

    /// Ctrl-Z gives the cursor back before the tool stops; `fg` draws the panel afresh below
    /// what the shell printed meanwhile; a resize redraws at the new width at once.
    @Test func live_underJobControlAndAResize_keepsTheTerminalTidy() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try await runInTerminal(
          server, ["--live", "--interval", "5"],
          steps: """
            [{"after": 1, "do": "TSTP"}, {"wait": "stopped"}, {"sleep": 0.3},
             {"do": "CONT"}, {"after": 2, "sleep": 0.3}, {"do": "WINCH", "cols": 40},
             {"sleep": 0.5}, {"do": "INT"}]
            """)

        #expect(run.status == 130)
        try #require(run.stepOffsets.count == 8, "steps taken: \(run.stepOffsets)")
        let stopping = run.output(fromStep: 0)
        #expect(stopping.hasPrefix("\u{1B}[0m" + Self.showCursor), "\(stopping.debugDescription)")
        #expect(stopping.hasSuffix("[1]+  Stopped\r\r\n$ "), "the shell had the terminal")
        let resumed = run.output(fromStep: 3)
        #expect(
          resumed.hasPrefix(Self.hideCursor + "\u{1B}[2KBTC/USD"),
          "a fresh panel below the prompt, not over it: \(resumed.prefix(40).debugDescription)")
        let resized = run.output(fromStep: 5)
        #expect(resized.contains("Updated "), "laid out at 40 columns before the next tick")
        #expect(!resized.contains("low $"), "no sparkline at 40 columns")
        #expect(run.output.hasSuffix(Self.showCursor))
      }
    }

    // MARK: - Helpers

    struct TerminalRun {
      let status: Int
      let output: String
      /// Where the output stood when each step of `steps` was taken, in bytes.
      let stepOffsets: [Int]

      /// The output from step `index` on (to the next step, or the end).
      func output(fromStep index: Int) -> String {
        let bytes = Array(output.utf8)
        let start = stepOffsets[index]
        let end = index + 1 < stepOffsets.count ? stepOffsets[index + 1] : bytes.count
        return String(decoding: bytes[start..<end], as: UTF8.self)
      }
    }

    private func runInTerminal(
      _ server: FakeExchangeServer, _ arguments: [String], columns: Int = 80, rows: Int = 24,
      environment: [String: String] = [:],
      interruptAfterPanels: Int = 0, signal: String = "INT", steps: String = "[]"
    ) async throws -> TerminalRun {
      let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "pty-\(UUID().uuidString).out")
      defer { try? FileManager.default.removeItem(at: outputFile) }
      let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pty-run.py")
      let binary = try BinaryProcess.binaryURL.path
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments =
        [
          "python3", script.path, "--cols", "\(columns)", "--rows", "\(rows)", "--out",
          outputFile.path,
          "--interrupt-after", "\(interruptAfterPanels)", "--signal", signal, "--steps", steps,
          "--",
          binary, "--no-cache", "--primary-timeout", "3",
          "--sources", "binance,cryptocompare",
        ] + server.urlArguments + arguments
      var env = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME"].contains($0.key) }
      env["TERM"] = "xterm-256color"
      env["LANG"] = "C.UTF-8"
      // No real exchange streams in a test of the fake's REST answers (see quietEnvironment).
      env.merge(BinaryProcess.quietEnvironment) { _, quiet in quiet }
      env.merge(environment) { _, new in new }
      process.environment = env
      let stdout = Pipe()
      process.standardOutput = stdout
      try process.run()
      // Poll rather than block: a blocked cooperative thread would stall the fake exchange.
      while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
      let report = stdout.fileHandleForReading.readDataToEndOfFile()
      let object = (try? JSONSerialization.jsonObject(with: report)) as? [String: Any]
      let events = object?["events"] as? [[String: Any]] ?? []
      let output = String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
      return TerminalRun(
        status: object?["status"] as? Int ?? -1, output: output,
        stepOffsets: events.compactMap { $0["offset"] as? Int })
    }

  }
}
