import BTCPriceTestSupport
import Foundation
import Testing

/// `btc-price doctor` against the fake exchange, its output in a pipe.
extension BinaryEndToEndTests {
  @Suite("btc-price doctor", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct DoctorEndToEndTests {
    @Test func oneSourceWorking_isEnough_andEachFailureIsPlaced() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 451, json: #"{"code":0,"msg":"x"}"#))
        await server.stub(.kraken, .kraken(price: "68870.10"))
        let run = try BinaryProcess(
          ["doctor", "--no-cache", "--sources", "binance,kraken,coinbase"] + server.urlArguments
            + ["--coinbase-url", "http://exchange.invalid/v2/prices/BTC-USD/spot"])
        let status = await run.waitForExit()

        #expect(status == 0, "\(run.stderrText)")
        let text = run.stdoutText.joined(separator: "\n")
        #expect(text.contains("failed at http: HTTP 451"), "\(text)")
        #expect(text.contains("price 68870.1 USD"))
        #expect(text.contains("failed at dns: unreachable: host not found"))
        #expect(text.contains("Verdict: a price from kraken."))
      }
    }

    /// The day's candles, asked once of each exchange with them: what came, or why nothing did.
    @Test func thePriceHistory_isAskedOnce_andSaysWhatCame() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))
        let run = try BinaryProcess(
          ["doctor", "--no-cache", "--no-stream", "--history", "--sources", "binance"]
            + server.urlArguments)
        let status = await run.waitForExit()

        #expect(status == 0, "\(run.stderrText)")
        let text = run.stdoutText.joined(separator: "\n")
        #expect(text.contains("Price history (the day's candles), each asked once:"), "\(text)")
        #expect(text.contains("    290 candles of 5 min, the newest from "), "\(text)")
        #expect(await server.candleRequests(to: .binance).count == 1)
      }
    }

    /// Slow sources are asked side by side, so doctor takes as long as the slowest, not the sum,
    /// and still lists them in chain order.
    @Test func slowSources_areAskedSideBySide_andListedInChainOrder() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23", delay: .seconds(2)))
        await server.stub(.coinbase, .coinbase(price: "68880.55", delay: .seconds(2)))
        await server.stub(.kraken, .kraken(price: "68870.10", delay: .seconds(2)))
        let run = try BinaryProcess(
          ["doctor", "--no-cache", "--no-stream", "--sources", "kraken,binance,coinbase"]
            + server.urlArguments)
        let status = await run.waitForExit()

        #expect(status == 0, "\(run.stderrText)")
        let arrivals = [
          await server.requests(to: .binance), await server.requests(to: .coinbase),
          await server.requests(to: .kraken),
        ].compactMap { $0.first?.receivedAt }
        #expect(arrivals.count == 3)
        if let first = arrivals.min(), let last = arrivals.max() {
          // One after the other they would come 2 s apart.
          #expect(first.duration(to: last) < .seconds(1), "\(arrivals)")
        }
        let text = run.stdoutText.joined(separator: "\n")
        let order = ["  kraken (", "  binance (", "  coinbase ("].compactMap {
          text.range(of: $0)?.lowerBound
        }
        #expect(order.count == 3 && order == order.sorted(), "\(text)")
      }
    }

    @Test func noSourceWorking_exitsOne_withJSON() async throws {
      try await FakeExchangeServer.withRunning { server in
        let run = try BinaryProcess(
          [
            "doctor", "--json", "--no-cache", "--sources", "binance", "--binance-url",
            "https://localhost:\(server.port)/api/v3/ticker/price",
            "--proxy", "",
          ], environment: ["CRYPTOCOMPARE_API_KEY": "s3cret-key"])
        let status = await run.waitForExit()

        #expect(status == 1)
        let json = try #require(run.stdoutText.first)
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let source = try #require((object["sources"] as? [[String: Any]])?.first)
        #expect((source["steps"] as? [String: String])?["tls"] == "failed")
        #expect(!json.contains("s3cret-key"))
      }
    }

    /// Binance escalates bans for clients that keep asking after a 418: doctor does not ask.
    @Test func bannedSource_isNotAsked() async throws {
      let state = FileManager.default.temporaryDirectory.appendingPathComponent(
        "doctor-state-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: state) }
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance,
          FakeResponse(
            status: 418, headers: ["Retry-After": "600"],
            json: #"{"code":-1003,"msg":"Way too many requests; IP banned."}"#))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))
        let chain = ["--no-cache", "--sources", "binance,coinbase"] + server.urlArguments
        let environment = ["XDG_STATE_HOME": state.path]

        let first = try BinaryProcess(chain + ["--once"], environment: environment)
        #expect(await first.waitForExit() == 0)
        let doctor = try BinaryProcess(["doctor"] + chain, environment: environment)
        #expect(await doctor.waitForExit() == 0)

        #expect(await server.requests(to: .binance).count == 1)
        let text = doctor.stdoutText.joined(separator: "\n")
        #expect(text.contains("not asked: resting for 10 min"), "\(text)")
        #expect(text.contains("binance: not asked for 10 min"))
      }
    }

    /// In a terminal (scripts/pty-run.py) the report is the same text, and the status the same.
    @Test func inATerminal_printsTheSameReport() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.kraken, .kraken(price: "68870.10"))
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
          "doctor-pty-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .deletingLastPathComponent().deletingLastPathComponent()
          .appendingPathComponent("scripts/pty-run.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
          [
            "python3", script.path, "--out", outputFile.path, "--",
            try BinaryProcess.binaryURL.path, "doctor", "--no-cache", "--sources", "kraken",
          ] + server.urlArguments
        // No real exchange streams in a test of the fake's answers (see quietEnvironment).
        process.environment = ProcessInfo.processInfo.environment.filter {
          ["PATH", "HOME"].contains($0.key)
        }.merging(BinaryProcess.quietEnvironment) { _, quiet in quiet }
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        // Poll rather than block: a blocked cooperative thread would stall the fake exchange.
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        let report = stdout.fileHandleForReading.readDataToEndOfFile()
        let object = (try? JSONSerialization.jsonObject(with: report)) as? [String: Any]
        let output = String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)

        #expect(object?["status"] as? Int == 0)
        #expect(output.contains("price 68870.1 USD"), "\(output)")
        #expect(output.contains("Verdict: a price from kraken."))
      }
    }
  }
}
