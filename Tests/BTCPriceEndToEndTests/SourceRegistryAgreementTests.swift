import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@testable import btc_price

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The registry is the one list of sources; the command line (its options are read from the
/// registry's keys: `SettingOptions`), docs/SOURCES.md's table and the tests' fake exchange are derived
/// from it or checked against it. These tests fail when they drift apart.
@Suite(
  "The registry, the options, --help and the fake exchange agree", .timeLimit(.minutes(2)),
  .hangLimit(.seconds(30)))
struct SourceRegistryAgreementTests {
  @Test(arguments: PriceSourceRegistry.all.map(\.source.id))
  func everySource_hasAURLOptionThatReachesIt(id: String) throws {
    let definition = try #require(PriceSourceRegistry.definition(id: id))

    let options = try PipelineOptions.parse(["--\(definition.urlOptionName)", "http://h/p"])

    #expect(options.settings == [definition.urlOptionName: "http://h/p"])
  }

  @Test(arguments: PriceSourceRegistry.all.filter { $0.stream != nil }.map(\.source.id))
  func everySourceWithAStream_hasAStreamURLOptionThatReachesIt(id: String) throws {
    let definition = try #require(PriceSourceRegistry.definition(id: id))

    let options = try PipelineOptions.parse(["--\(definition.streamURLOptionName)", "ws://h/p"])

    #expect(options.settings == [definition.streamURLOptionName: "ws://h/p"])
  }

  @Test func theURLOptions_takeEverySpellingAnOptionTakes_andTheLastOneGivenWins() throws {
    let options = try PipelineOptions.parse([
      "--kraken-url=http://a/1", "--coinbase-stream-url", "ws://b/2", "--kraken-url", "http://a/3",
    ])

    #expect(options.settings == ["kraken-url": "http://a/3", "coinbase-stream-url": "ws://b/2"])
  }

  @Test func aURLOptionWithoutItsValue_isAUsageErrorNamingIt() {
    #expect {
      try PipelineOptions.parse(["--bitstamp-stream-url"])
    } throws: { error in
      PipelineOptions.message(for: error).contains(
        "Missing value for '--bitstamp-stream-url <url>'")
    }
  }

  @Test func theStreamURLOptions_nameNoStreamTheRegistryLacks() {
    let help = PipelineOptions.helpMessage(columns: 200)
    let named = help.matches(of: #/--([a-z0-9]+)-stream-url/#).map { String($0.output.1) }

    #expect(Set(named) == Set(PriceSourceRegistry.all.filter { $0.stream != nil }.map(\.source.id)))
  }

  @Test func help_namesEveryStreamsOptionAndItsVariable() {
    let help = BTCPriceCommand.helpMessage(columns: 200)

    for definition in PriceSourceRegistry.all where definition.stream != nil {
      #expect(help.contains("--\(definition.streamURLOptionName)"), "\(definition.source.id)")
      #expect(help.contains(definition.streamURLEnvironmentVariable), "\(definition.source.id)")
    }
    #expect(help.contains("--stream/--no-stream"))
  }

  @Test func theURLOptions_nameNoSourceTheRegistryLacks() {
    let help = PipelineOptions.helpMessage(columns: 200)
    let named = help.matches(of: #/--([a-z0-9]+)-url/#).map { String($0.output.1) }

    #expect(Set(named) == Set(PriceSourceRegistry.all.map(\.source.id)))
  }

  @Test func help_namesEverySourceItsOptionAndItsVariable() {
    let help = BTCPriceCommand.helpMessage(columns: 200)

    for definition in PriceSourceRegistry.all {
      #expect(help.contains("--\(definition.urlOptionName)"), "\(definition.source.id)")
      #expect(help.contains(definition.urlEnvironmentVariable), "\(definition.source.id)")
      #expect(help.contains(definition.source.id), "\(definition.source.id)")
    }
  }

  @Test func theSourcesPagesTable_listsTheRegistryInOrder() throws {
    let page = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/SOURCES.md").standardizedFileURL,
      encoding: .utf8)
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(
      lines.firstIndex { $0.hasPrefix("| source | endpoint | currencies | key |") },
      "docs/SOURCES.md has no sources table")
    let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
      line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
        $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
      }
    }

    #expect(rows.map { $0[0] } == PriceSourceRegistry.all.map(\.source.id))
    for (row, definition) in zip(rows, PriceSourceRegistry.all) {
      #expect(row[1] == definition.defaultURL.absoluteString, "\(definition.source.id)")
      #expect(
        row[2] == definition.currencies.map(\.code).joined(separator: ", "),
        "\(definition.source.id)")
      #expect(row[3] == (definition.apiKey?.environmentVariable ?? "no"), "\(definition.source.id)")
      #expect(
        row[4] == (definition.stream?.defaultURL.absoluteString ?? "no"),
        "\(definition.source.id)")
    }
  }

  @Test func help_statesTheDefaultsTheRunUses() {
    let help = BTCPriceCommand.helpMessage(columns: 200)

    #expect(help.contains("(default \(PriceDefaults.interval.secondsText))"))
    #expect(help.contains("(default \(PriceDefaults.primaryTimeout.secondsText))"))
  }

  @Test func theFakeExchange_servesEverySourceAtItsRealPath() async throws {
    try await FakeExchangeServer.withRunning { server in
      let ids = stride(from: 0, to: server.urlArguments.count, by: 2).map {
        server.urlArguments[$0]
      }
      let withCandles = PriceSourceRegistry.all.filter { $0.candles != nil }
      #expect(
        ids == PriceSourceRegistry.all.map { "--\($0.urlOptionName)" }
          + withCandles.map { "--\($0.candlesURLOptionName)" })

      for definition in PriceSourceRegistry.all {
        await server.stub(definition, FakeResponse(json: #"{"id":"\#(definition.source.id)"}"#))
        let url = server.url(for: definition)
        #expect(
          url.path(percentEncoded: false) == definition.defaultURL.path(percentEncoded: false))
        #expect(url.query == definition.defaultURL.query)

        let (body, _) = try await URLSession.shared.data(from: url)

        #expect(String(decoding: body, as: UTF8.self) == #"{"id":"\#(definition.source.id)"}"#)
        #expect(await server.requests(to: definition).count == 1)
      }
      // Each exchange's candles at their own real path, apart from its price.
      for definition in withCandles {
        let candles = try #require(definition.candles)
        await server.stubCandles(definition, FakeResponse(json: #"{"candles":1}"#))
        let url = server.candlesURL(for: definition)
        #expect(url.path(percentEncoded: false) == candles.defaultURL.path(percentEncoded: false))

        let (body, _) = try await URLSession.shared.data(from: url)

        #expect(String(decoding: body, as: UTF8.self) == #"{"candles":1}"#)
        #expect(await server.candleRequests(to: definition).count == 1)
        #expect(await server.requests(to: definition).count == 1)
      }
    }
  }
}
