import BTCPriceTestSupport
import Foundation
import Testing

/// The built binary's streams behind a real proxy, a stream that refuses us, and `doctor`'s look
/// at the stream. The fake stream is named `exchange.test`, which only the proxy resolves: a
/// trade on stdout proves the stream went through the proxy.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price streams behind a proxy, refused streams and doctor", .serialized,
    .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct StreamProxyEndToEndTests {
    static let streamPrice = "70123.45"
    static let restPrice = "68880.55"

    @Test func wsStream_goesThroughHTTPProxyVariable_andRESTIsNeverAsked() async throws {
      try await withExchangeStreamAndProxy { server, stream, proxy in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          ["--json", "--no-cache", "--sources", "binance", "--stream", "--count", "5"]
            + ["--interval", "0.2", "--verbose"] + server.urlArguments + streamArguments(stream),
          environment: ["http_proxy": proxy.url(), "no_proxy": "127.0.0.1"])

        #expect(await run.waitForExit() == 0, "\(run.stderrText)")
        #expect(run.stdoutText.count == 5)
        #expect(run.stdoutText.allSatisfy { $0.contains(Self.streamPrice) }, "\(run.stdoutText)")
        #expect(proxy.requests.map(\.target) == ["exchange.test:\(stream.port)"])
        #expect(await server.requests(to: .binance).isEmpty)
        #expect(
          run.stderrText.contains(
            "binance stream goes through http://127.0.0.1:\(proxy.port) (from $http_proxy)"),
          "\(run.stderrText)")
      }
    }

    /// A real stream is `wss://`: `HTTPS_PROXY` carries it, and TLS inside the tunnel trusts the
    /// authority given with `--ca-file`, as REST does.
    @Test func wssStream_goesThroughHTTPSProxyVariable_trustingTheCAFile() async throws {
      try await withExchangeStreamAndProxy { server, stream, proxy in
        let tls = try await FakeTLSServer.start(
          certificate: FakeTLSServer.fixture("localhost.pem"),
          key: FakeTLSServer.fixture("localhost.key"), backendPort: stream.port)
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          ["--json", "--no-cache", "--sources", "binance", "--stream", "--count", "3"]
            + ["--interval", "0.2", "--ca-file", FakeTLSServer.fixture("ca.pem")]
            + server.urlArguments
            + ["--binance-stream-url", "wss://localhost:\(tls.port)/ws/btcusdt@trade"],
          environment: ["HTTPS_PROXY": proxy.url()])
        let status = await run.waitForExit()
        await tls.stop()

        #expect(status == 0, "\(run.stderrText)")
        #expect(run.stdoutText.count == 3)
        #expect(run.stdoutText.allSatisfy { $0.contains(Self.streamPrice) }, "\(run.stdoutText)")
        #expect(proxy.requests.map(\.target) == ["localhost:\(tls.port)"])
        #expect(await server.requests(to: .binance).isEmpty)
      }
    }

    @Test func streamRefused451_restsTheExchange_andTheNextRunDoesNotKnockAgain() async throws {
      let state = FileManager.default.temporaryDirectory.appendingPathComponent(
        "stream-refusal-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: state) }
      try await withExchangeStreamAndProxy { server, stream, _ in
        // Gemini has no stream: Binance's is the only one, and Gemini's REST the next source.
        await server.stub(.gemini, .gemini(price: Self.restPrice))
        stream.behave(.refuseUpgradeWith(status: 451))
        let arguments =
          ["--json", "--no-cache", "--sources", "binance,gemini", "--stream", "--count", "3"]
          + ["--interval", "0.2", "--verbose"] + server.urlArguments + stream.urlArguments
        let environment = ["XDG_STATE_HOME": state.path]

        let first = try BinaryProcess(arguments, environment: environment)
        #expect(await first.waitForExit() == 0, "\(first.stderrText)")
        #expect(first.stdoutText.count == 3)
        #expect(first.stdoutText.allSatisfy { $0.contains(Self.restPrice) }, "\(first.stdoutText)")
        #expect(
          first.stderrText.contains("binance stream: refused (HTTP 451"), "\(first.stderrText)")
        // The region block rests Binance's REST as well: only Coinbase is asked.
        #expect(await server.requests(to: .binance).isEmpty)
        let attempts = stream.attempts

        let second = try BinaryProcess(arguments, environment: environment)
        #expect(await second.waitForExit() == 0, "\(second.stderrText)")
        #expect(stream.attempts == attempts, "the second run knocked on the refused stream")
        #expect(await server.requests(to: .binance).isEmpty)

        let doctor = try BinaryProcess(
          ["doctor", "--no-cache", "--sources", "binance,gemini", "--stream"]
            + server.urlArguments + stream.urlArguments, environment: environment)
        _ = await doctor.waitForExit()
        let text = doctor.stdoutText.joined(separator: "\n")
        #expect(text.contains("Streams the ticks read, each opened once:"), "\(text)")
        #expect(text.contains("not asked: resting for"), "\(text)")
        #expect(stream.attempts == attempts)
      }
    }

    /// Binance's stream refuses this machine (451): Kraken's stream stands in, and Coinbase and
    /// Kraken check each other. Kraken's stream lies, so the check is seen at work: Bitstamp's
    /// REST settles it, never Kraken's own.
    @Test func streamRefused451_theStandbyStreamStandsIn_andTheTwoLeftCheckEachOther()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.bitstamp, .bitstamp(price: "68870.10"))
        await server.stub(.kraken, .kraken(price: "6890.12"))
        let binance = try await FakeStreamServer.start()
        let coinbase = try await FakeStreamServer.start()
        let kraken = try await FakeStreamServer.start()
        binance.behave(.refuseUpgradeWith(status: 451))
        coinbase.repeat(
          { FakeStreamMessage.coinbaseTicker(price: "68901.23") }, every: .milliseconds(50))
        kraken.repeat(
          { FakeStreamMessage.krakenTicker(price: "6890.12") }, every: .milliseconds(50))
        let streamURLs = [
          "--binance-stream-url", binance.url(path: "/ws/btcusdt@trade").absoluteString,
          "--coinbase-stream-url", coinbase.url(path: "/coinbase").absoluteString,
          "--kraken-stream-url", kraken.url(path: "/kraken").absoluteString,
        ]
        let sources = ["--sources", "binance,coinbase,kraken,bitstamp"]
        let folder = FileManager.default.temporaryDirectory
          .appendingPathComponent("btc-price-standby-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = ["XDG_STATE_HOME": folder.path]
        let run = try BinaryProcess(
          ["--json", "--no-cache", "--stream", "--count", "5", "--interval", "0.2", "--verbose"]
            + sources + server.urlArguments + streamURLs, environment: state)
        let status = await run.waitForExit()
        let krakenRequests = await server.requests(to: .kraken).count
        // doctor, as the next run would: Binance's stream rests, so it opens Kraken's too.
        let doctor = try BinaryProcess(
          ["doctor", "--no-cache", "--stream"] + sources + server.urlArguments + streamURLs,
          environment: state)
        _ = await doctor.waitForExit()
        for stream in [binance, coinbase, kraken] {
          stream.stopRepeating()
          await stream.stop()
        }

        #expect(status == 0, "\(run.stderrText)")
        let lines = try run.stdoutText.map { line in
          try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0["price"] as? String == "68901.23" }, "\(run.stdoutText)")
        #expect(lines.allSatisfy { $0["source"] as? String == "coinbase" })
        let checks = lines.compactMap { $0["crossCheck"] as? [String: Any] }
        #expect(checks.count == 5, "every tick checked: \(run.stdoutText)")
        #expect(checks.allSatisfy { $0["referee"] as? String == "bitstamp" })
        #expect(
          checks.allSatisfy {
            $0["rejected"] as? [String: String] == ["source": "kraken", "price": "6890.12"]
          })
        #expect(krakenRequests == 0, "Kraken's REST never referees Kraken")
        #expect(
          run.stderrText.contains(
            "streams first: binance, coinbase (kraken stands in while one rests)"),
          "\(run.stderrText)")
        #expect(
          run.stderrText.contains(
            "kraken stream: standing in while binance rests, so two streams still check each other"
          ), "\(run.stderrText)")
        #expect(
          run.stderrText.contains(
            "no fresh price from the binance stream: price from the coinbase stream"),
          "\(run.stderrText)")
        #expect(binance.attempts == 1)
        let report = doctor.stdoutText.joined(separator: "\n")
        #expect(report.contains("not asked: resting for"), "\(report)")
        #expect(report.contains("  kraken (\(streamURLs[5])), direct"), "\(report)")
        #expect(
          report.components(separatedBy: "upgrade ok, message ok").count == 3,
          "Coinbase's and Kraken's streams: \(report)")
      }
    }

    @Test func streamRefused403_isSaidOnce_andTheRunGoesOnOverREST() async throws {
      try await withExchangeStreamAndProxy { server, stream, _ in
        stream.behave(.refuseUpgradeWith(status: 403))

        let run = try BinaryProcess(
          ["--json", "--no-cache", "--sources", "binance", "--stream", "--count", "3"]
            + ["--interval", "0.2"] + server.urlArguments + stream.urlArguments)

        #expect(await run.waitForExit() == 0, "\(run.stderrText)")
        #expect(run.stdoutText.allSatisfy { $0.contains(Self.restPrice) }, "\(run.stdoutText)")
        #expect(
          run.stderrText
            == "btc-price: warning: the binance stream was refused (HTTP 403: the stream's "
            + "upgrade was refused); not opening it again for 60 min, prices come over REST "
            + "meanwhile (btc-price doctor says more)\n")
        #expect(stream.attempts == 1)
        // A 403 on the stream rests the stream only: REST answers every tick.
        #expect(await server.requests(to: .binance).count == 3)
      }
    }

    @Test func doctor_opensBothStreamsTheTicksRead_throughTheProxy_andTimesTheirFirstMessages()
      async throws
    {
      try await withExchangeStreamAndProxy { server, stream, proxy in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(50))
        // Coinbase's stream on its own server: it sends nothing but the subscription's answer.
        let coinbase = try await FakeStreamServer.start()
        let coinbaseURL = "ws://exchange.test:\(coinbase.port)/coinbase"

        let doctor = try BinaryProcess(
          ["doctor", "--no-cache", "--sources", "binance,coinbase", "--stream"]
            + server.urlArguments + streamArguments(stream)
            + ["--coinbase-stream-url", coinbaseURL],
          environment: ["ws_proxy": proxy.url(), "no_proxy": "127.0.0.1"])
        let status = await doctor.waitForExit()
        await coinbase.stop()

        #expect(status == 0, "\(doctor.stderrText)")
        let text = doctor.stdoutText.joined(separator: "\n")
        #expect(text.contains("Streams the ticks read, each opened once:"), "\(text)")
        #expect(
          text.contains(
            "  binance (ws://exchange.test:\(stream.port)/ws/btcusdt@trade), through "
              + "http://127.0.0.1:\(proxy.port) (from $ws_proxy)"), "\(text)")
        #expect(text.contains("first message: a trade at \(Self.streamPrice) in "), "\(text)")
        #expect(
          text.contains(
            "  coinbase (\(coinbaseURL)), through http://127.0.0.1:\(proxy.port) (from $ws_proxy)"),
          "\(text)")
        #expect(
          text.contains("first message: a heartbeat or acknowledgement in "), "\(text)")
        let primary = try #require(text.range(of: "  binance (ws:"))
        let crossCheck = try #require(text.range(of: "  coinbase (ws:"))
        #expect(primary.lowerBound < crossCheck.lowerBound, "the primary first")
        #expect(
          text.components(separatedBy: "proxy ok, connect ok, tls n/a, upgrade ok, message ok")
            .count == 3, "\(text)")
        #expect(
          Set(proxy.requests.map(\.target))
            == ["exchange.test:\(stream.port)", "exchange.test:\(coinbase.port)"])
      }
    }

    @Test func doctor_saysWhyTheStreamFailed() async throws {
      try await withExchangeStreamAndProxy { server, stream, _ in
        await server.stub(.binance, .binance(price: Self.restPrice))
        stream.behave(.refuseUpgradeWith(status: 403))

        let doctor = try BinaryProcess(
          ["doctor", "--json", "--no-cache", "--sources", "binance", "--stream"]
            + server.urlArguments + stream.urlArguments)

        // The ticks still have REST: a refused stream does not fail doctor.
        #expect(await doctor.waitForExit() == 0, "\(doctor.stderrText)")
        let json = try #require(doctor.stdoutText.first)
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let check = try #require((object["streams"] as? [[String: Any]])?.first)
        #expect((check["steps"] as? [String: String])?["upgrade"] == "failed")
        #expect((check["verdict"] as? String)?.contains("HTTP 403") == true, "\(json)")
        #expect((check["advice"] as? String)?.contains("firewall") == true, "\(json)")
      }
    }

    @Test func doctor_trustFromTheEnvironment_saysItsOriginOnce() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: Self.restPrice))
        let doctor = try BinaryProcess(
          ["doctor", "--no-cache", "--sources", "binance"] + server.urlArguments,
          environment: ["SSL_CERT_FILE": "/etc/ssl/company-ca.pem"])

        _ = await doctor.waitForExit()
        let text = doctor.stdoutText.joined(separator: "\n")

        #expect(text.contains("  trust: /etc/ssl/company-ca.pem ($SSL_CERT_FILE)"), "\(text)")
        #expect(!text.contains("see value"))
      }
    }

    // MARK: Helpers

    /// `--<name>-stream-url` for every stream, under the name only the proxy resolves.
    private func streamArguments(_ stream: FakeStreamServer) -> [String] {
      stream.urlArguments.map { $0.replacingOccurrences(of: "127.0.0.1", with: "exchange.test") }
    }

    private func withExchangeStreamAndProxy(
      _ body: (FakeExchangeServer, FakeStreamServer, FakeProxyServer) async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: Self.restPrice))
        let stream = try await FakeStreamServer.start()
        do {
          try await FakeProxyServer.withRunning(
            .httpConnect, hosts: ["exchange.test": "127.0.0.1", "localhost": "127.0.0.1"]
          ) { proxy in
            try await body(server, stream, proxy)
          }
          await stream.stop()
        } catch {
          await stream.stop()
          throw error
        }
      }
    }
  }
}
