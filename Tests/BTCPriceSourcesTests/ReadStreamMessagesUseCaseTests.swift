import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Real-shaped messages of each exchange's stream (docs/STREAMS.md says where each shape was
/// confirmed) and the bad ones: junk, another symbol, a price that is not a positive decimal, a
/// refused subscription.
@Suite("Read the exchanges' stream messages", .hangLimit(.seconds(30)))
struct ReadStreamMessagesUseCaseTests {
  // MARK: Binance (spot API docs, "Trade Streams")

  @Test func binance_deliversTheTradePriceFromItsText() throws {
    let message = try read(
      .binance,
      #"{"e":"trade","E":1763800000123,"s":"BTCUSDT","t":5123456789,"p":"68901.23000000","#
        + #""q":"0.00100000","T":1763800000120,"m":true,"M":true}"#)

    #expect(message == .trade(Decimal(string: "68901.23")!))
  }

  @Test func binance_asksForANewConnectionOnServerShutdown() throws {
    #expect(try read(.binance, #"{"e":"serverShutdown","E":1763800000123}"#) == .reconnectSoon)
  }

  @Test func binance_namesTheMarketInThePathForEachCurrency() throws {
    let endpoint = try PriceSourceDefinition.binance.streamEndpoint(
      for: .eur, base: URL(string: "ws://127.0.0.1:8080/ws/btcusdt@trade")!)

    #expect(endpoint.url.absoluteString == "ws://127.0.0.1:8080/ws/btceur@trade")
    #expect(endpoint.subscriptions.isEmpty)
  }

  // MARK: Coinbase (Exchange WebSocket feed docs; spiceai's Coinbase connector)

  @Test func coinbase_deliversTheTickerPriceFromItsText() throws {
    let message = try read(
      .coinbase,
      #"{"type":"ticker","sequence":3262786978,"product_id":"BTC-USD","price":"68880.55","#
        + #""open_24h":"67000.00","side":"buy","time":"2026-11-23T21:00:00.250000Z","#
        + #""trade_id":20153558,"last_size":"0.03000000","best_bid":"68880.54","#
        + #""best_ask":"68880.55"}"#)

    #expect(message == .trade(Decimal(string: "68880.55")!))
  }

  @Test func coinbase_takesAHeartbeatAsASignOfLife() throws {
    let message = try read(
      .coinbase,
      #"{"type":"heartbeat","last_trade_id":20153558,"product_id":"BTC-USD","sequence":1,"#
        + #""time":"2026-11-23T21:00:01.000000Z"}"#)

    #expect(message == .alive)
  }

  @Test func coinbase_subscribesToTickerAndHeartbeatForThePair() throws {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd)

    #expect(
      endpoint.subscriptions == [
        #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker","heartbeat"]}"#
      ])
  }

  @Test func coinbase_deliversARefusedSubscription() {
    #expect(
      throws: PriceStreamError.subscriptionRefused(
        "Failed to subscribe: BTC-XYZ is not a valid product")
    ) {
      try read(
        .coinbase,
        #"{"type":"error","message":"Failed to subscribe","reason":"BTC-XYZ is not a valid product"}"#
      )
    }
  }

  // MARK: Kraken v2 (docs.kraken.com spot-websocket-v2 ticker and heartbeat)

  @Test func kraken_deliversTheLastTradeFromTheNumbersLiteralText() throws {
    let message = try read(
      .kraken,
      #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","bid":68870.0,"#
        + #""bid_qty":0.5,"ask":68870.1,"ask_qty":1.2,"last":68870.10,"volume":1234.5,"#
        + #""vwap":68000.1,"low":67000.0,"high":69000.0,"change":870.1,"change_pct":1.28}]}"#)

    #expect(message == .trade(Decimal(string: "68870.10")!))
  }

  /// A JSON number may be written with an exponent (a string price may not).
  @Test func kraken_readsANumberWrittenWithAnExponent() throws {
    let message = try read(
      .kraken,
      #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":6.88701E4}]}"#)

    #expect(message == .trade(Decimal(string: "68870.1")!))
  }

  @Test func kraken_takesAHeartbeatAsASignOfLife() throws {
    #expect(try read(.kraken, #"{"channel":"heartbeat"}"#) == .alive)
  }

  @Test func kraken_deliversARefusedSubscription() {
    #expect(throws: PriceStreamError.subscriptionRefused("Currency pair not supported")) {
      try read(
        .kraken,
        #"{"method":"subscribe","error":"Currency pair not supported","success":false,"#
          + #""time_in":"2026-11-23T21:00:00.000000Z","time_out":"2026-11-23T21:00:00.000001Z"}"#
      )
    }
  }

  // MARK: Bitstamp (bitstamp.net/websocket/v2)

  @Test func bitstamp_deliversTheTradePriceFromPriceStr() throws {
    let message = try read(
      .bitstamp,
      #"{"data":{"id":412345678,"timestamp":"1763800000","amount":0.01,"amount_str":"0.01000000","#
        + #""price":73285,"price_str":"73285","type":0,"microtimestamp":"1763800000123456","#
        + #""buy_order_id":1,"sell_order_id":2},"channel":"live_trades_btcusd","event":"trade"}"#)

    #expect(message == .trade(Decimal(string: "73285")!))
  }

  @Test func bitstamp_asksForANewConnectionWhenTheServerRequestsIt() throws {
    #expect(
      try read(.bitstamp, #"{"event":"bts:request_reconnect","channel":"","data":""}"#)
        == .reconnectSoon)
  }

  /// `{"event":"bts:heartbeat"}` and its answer as a public client recorded them (a Rust
  /// order-book aggregator's README, index id 10072107428: `< {"event":"bts:heartbeat",
  /// "channel":"","data":{"status":"success"}}`).
  @Test func bitstamp_asksAQuietConnectionWithItsHeartbeat_andReadsTheAnswerAsALiveStream() throws {
    let endpoint = try PriceSourceDefinition.bitstamp.streamEndpoint(for: .usd)

    #expect(endpoint.keepAlive == .init(message: #"{"event":"bts:heartbeat"}"#))
    #expect(
      try endpoint.read(#"{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}"#)
        == .alive)
  }

  @Test func bitstamp_subscribesToLiveTradesOfThePair() throws {
    let endpoint = try PriceSourceDefinition.bitstamp.streamEndpoint(for: .eur)

    #expect(
      endpoint.subscriptions == [
        #"{"event":"bts:subscribe","data":{"channel":"live_trades_btceur"}}"#
      ])
  }

  // MARK: OKX (okx.com/docs-v5: "WebSocket" overview and "WS / Tickers channel", as copied in
  // rosssaunders/coincise's and other public docs mirrors, index ids 57126862094, 54528691004)

  @Test func okx_deliversTheLastPriceOfItsTickersPush() throws {
    #expect(try read(.okx, FakeStreamMessage.okxTicker(price: "9999.99")) == .trade(9999.99))
  }

  @Test func okx_subscribesToTheTickersOfThePair_andKeepsAQuietConnectionWithPing() throws {
    let endpoint = try PriceSourceDefinition.okx.streamEndpoint(for: .usd)

    #expect(endpoint.url.absoluteString == "wss://ws.okx.com:8443/ws/v5/public")
    #expect(
      endpoint.subscriptions == [
        #"{"op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#
      ])
    #expect(endpoint.keepAlive == .init(message: "ping", plainReply: "pong"))
    #expect(try endpoint.read("pong") == .alive)
  }

  @Test func okx_takesTheSubscriptionsAnswerAsASignOfLife() throws {
    let answer =
      #"{"id":"1512","event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"#
      + #""connId":"a4d3ae55"}"#

    #expect(try read(.okx, answer) == .alive)
  }

  @Test(arguments: [
    // The docs' failure example, and a refusal a user met (okxapi/python-okx#21).
    (
      #"{"id":"1512","event":"error","code":"60012","msg":"Invalid request: {\"op\": "#
        + #"\"subscribe\", \"argss\":[{ \"channel\" : \"tickers\", \"instId\" : "#
        + #"\"LTC-USD-200327\"}]}","connId":"a4d3ae55"}"#,
      // Clipped as every text from an exchange is, its code kept first.
      #"code 60012: Invalid request: {"op": "subscribe", "argss":[{ …"#
    ),
    (
      #"{"event":"error","msg":"channel:tickers,instId:LTC-USD doesn't exist","code":"60018"}"#,
      "code 60018: channel:tickers,instId:LTC-USD doesn't exist"
    ),
    // 60 characters are kept whole; at 61 the 60th is followed by "…".
    (
      #"{"event":"error","msg":"mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm.","code":"60018"}"#,
      "code 60018: mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm."
    ),
    (
      #"{"event":"error","msg":"mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm.","code":"60018"}"#,
      "code 60018: mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm…"
    ),
  ])
  func okx_endsARefusedSubscriptionWithItsReason(message: String, reason: String) {
    #expect(throws: PriceStreamError.subscriptionRefused(reason)) { try read(.okx, message) }
  }

  @Test func okx_asksForANewConnectionWhenItAnnouncesAServiceUpgrade() throws {
    let notice =
      #"{"event":"notice","code":"64008","msg":"The connection will soon be closed for a "#
      + #"service upgrade. Please reconnect.","connId":"a4d3ae55"}"#

    #expect(try read(.okx, notice) == .reconnectSoon)
  }

  // MARK: Bad messages, for every exchange

  @Test(arguments: [
    (PriceSourceDefinition.binance, #"{"e":"trade","s":"ETHUSDT","p":"3000.00"}"#),
    (.binance, #"{"e":"trade","s":"BTCUSDT","p":68901.23}"#),
    (.binance, #"{"e":"trade","s":"BTCUSDT","p":"-1"}"#),
    (.binance, #"{"e":"trade","s":"BTCUSDT","p":"1e400"}"#),
    (.coinbase, #"{"type":"ticker","product_id":"ETH-USD","price":"3000.00"}"#),
    (.coinbase, #"{"type":"ticker","product_id":"BTC-USD","price":"0"}"#),
    (.kraken, #"{"channel":"ticker","type":"update","data":[{"symbol":"ETH/USD","last":3000.1}]}"#),
    (.kraken, #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":"x"}]}"#),
    (.kraken, #"{"channel":"ticker","type":"update","data":[]}"#),
    (.bitstamp, #"{"event":"trade","channel":"live_trades_ethusd","data":{"price_str":"3000"}}"#),
    (.bitstamp, #"{"event":"trade","channel":"live_trades_btcusd","data":{"price":73285}}"#),
    (.okx, FakeStreamMessage.okxTicker(price: "3000.00", instrument: "ETH-USDT")),
    // JKorf/OKX.Net's `Ticker.txt` as it is: subscribed to ETH-USDT, a BTC-USDT ticker in it.
    (
      .okx,
      #"{"arg":{"channel":"tickers","instId":"ETH-USDT"},"data":[{"instType":"SPOT","#
        + #""instId":"BTC-USDT","last":"9999.99"}]}"#
    ),
    (
      .okx,
      #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instType":"SPOT","#
        + #""instId":"ETH-USDT","last":"3000.00"}]}"#
    ),
    (
      .okx,
      #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","last":68870.1}]}"#
    ),
    (
      .okx,
      #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","last":""}]}"#
    ),
    (.okx, #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[]}"#),
    (.okx, "ping"),
    (.binance, FakeStreamMessage.binanceTrade(price: "6.890123e4")),
    (.coinbase, FakeStreamMessage.coinbaseTicker(price: "7.419271e-4")),
    (.bitstamp, FakeStreamMessage.bitstampTrade(price: "7.3285e4")),
    (.binance, "<html>502 Bad Gateway</html>"),
    (.coinbase, "[1,2,3]"),
    (.kraken, ""),
  ])
  func read_deliversInvalidMessageAndNeverAPrice(stream: PriceSourceDefinition, text: String) {
    #expect {
      try read(stream, text)
    } throws: { error in
      if case .invalidMessage = error as? PriceStreamError { return true }
      return false
    }
  }

  @Test func aStreamsEndpoint_carriesItsSourcesName() throws {
    for definition in PriceSourceRegistry.all where definition.stream != nil {
      #expect(try definition.streamEndpoint(for: .usd).source == definition.source)
    }
    #expect(PriceSourceDefinition.cryptoCompare.stream == nil)
    #expect(PriceSourceDefinition.kraken.streamURLOptionName == "kraken-stream-url")
    #expect(
      PriceSourceDefinition.kraken.streamURLEnvironmentVariable == "BTC_PRICE_KRAKEN_STREAM_URL")
  }

  @Test func aSourceWithoutAStream_hasNoStreamEndpoint() {
    #expect(throws: PriceSourceDefinition.MarketError.noStream(sourceID: "gemini")) {
      try PriceSourceDefinition.gemini.streamEndpoint(for: .usd)
    }
  }

  private func read(_ stream: PriceSourceDefinition, _ text: String) throws -> PriceStreamMessage {
    try stream.streamEndpoint(for: .usd).read(text)
  }
}

@Suite("Choose the streams to keep open")
struct ChooseStreamsUseCaseTests {
  @Test func init_opensThePrimaryAndOneCrossCheckInChainOrder_andTheNextStandsBy() {
    let set = makeSUT(currency: .usd)

    #expect(set.runners.map(\.source) == [.binance, .coinbase])
    #expect(set.standby?.source == .kraken)
    #expect(set.streams.map(\.source) == [.binance, .coinbase, .kraken])
    #expect(set.expected.map(\.source) == [.binance, .coinbase])
  }

  @Test func init_skipsSourcesWithoutAStreamForTheCurrency() {
    let set = makeSUT(currency: .gbp)

    #expect(set.runners.map(\.source) == [.coinbase, .kraken])
    #expect(set.standby?.source == .bitstamp)
  }

  @Test func init_withTwoStreamsInTheChain_hasNoStandby() {
    let set = PriceStreamSet(
      sources: [.binance, .cryptoCompare, .coinbase], currency: .usd, connector: NeverConnector(),
      clock: ContinuousClock(), now: { Date() })

    #expect(set.runners.map(\.source) == [.binance, .coinbase])
    #expect(set.standby == nil)
  }

  /// How long each stream may stay silent and still have its price shown (docs/STREAMS.md):
  /// the streams with a heartbeat or a trade a second, 2.5 s; Bitstamp, with no heartbeat,
  /// 30 s. At a short interval the ticks' own bound is tighter (1.5 intervals, at least 1.5 s),
  /// at a long one each stream's is.
  @Test(arguments: [
    (interval: Duration.seconds(100), bounds: [2.5, 2.5, 2.5, 30.0, 2.5]),
    (interval: Duration.seconds(1), bounds: [1.5, 1.5, 1.5, 1.5, 1.5]),
    (interval: Duration.seconds(10), bounds: [2.5, 2.5, 2.5, 15.0, 2.5]),
  ])
  func streams_mayStaySilentForTheirOwnBoundAtMost(interval: Duration, bounds: [Double]) {
    let set = PriceStreamSet(
      sources: PriceSourceRegistry.all, currency: .usd, interval: interval,
      connector: NeverConnector(), clock: ContinuousClock(), now: { Date() }, maximumStreams: 5)

    #expect(
      set.streams.map(\.source.id) == ["binance", "coinbase", "kraken", "bitstamp", "okx"])
    #expect(set.streams.map(\.silenceBound) == bounds.map { Duration.milliseconds($0 * 1_000) })
  }

  private func makeSUT(currency: Currency) -> PriceStreamSet {
    PriceStreamSet(
      sources: PriceSourceRegistry.all, currency: currency, connector: NeverConnector(),
      clock: ContinuousClock(), now: { Date() })
  }
}

private struct NeverConnector: WebSocketConnector {
  func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    .unreachable("not used")
  }
}
