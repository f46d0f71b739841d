import BTCPriceCore
import BTCPriceSources
import Foundation

/// One scripted answer.
public struct FakeResponse: Sendable {
  /// How the answer goes over the wire.
  public enum Delivery: Sendable, Equatable {
    /// Head and body at once, with a `Content-Length`.
    case whole
    /// Head at once, then the body `chunk` bytes at a time, one chunk every `every`.
    case trickle(chunk: Int, every: Duration)
    /// Read the request and never answer; the connection stays open.
    case hang
    /// Close the connection with a TCP reset instead of answering.
    case reset
    /// Head without `Content-Length`, then `bytes` bytes of filler, written as the client reads
    /// them (the server never holds more than one chunk).
    case endless(bytes: Int)
  }

  public var status: Int
  public var headers: [String: String]
  public var body: Data
  /// How long the server waits before answering.
  public var delay: Duration
  public var delivery: Delivery

  public init(
    status: Int = 200, headers: [String: String] = [:], body: Data, delay: Duration = .zero,
    delivery: Delivery = .whole
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delay = delay
    self.delivery = delivery
  }

  public init(
    status: Int = 200, headers: [String: String] = [:], json: String, delay: Duration = .zero,
    delivery: Delivery = .whole
  ) {
    var headers = headers
    headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
    self.init(
      status: status, headers: headers, body: Data(json.utf8), delay: delay, delivery: delivery)
  }

  /// The same answer delivered differently.
  public func delivered(_ delivery: Delivery) -> FakeResponse {
    var copy = self
    copy.delivery = delivery
    return copy
  }

  /// Never answers.
  public static let hang = FakeResponse(body: Data(), delivery: .hang)
  /// Resets the connection without answering.
  public static let reset = FakeResponse(body: Data(), delivery: .reset)

  /// A 200 whose body goes on for `bytes` bytes, never buffered whole on either side.
  public static func endless(bytes: Int) -> FakeResponse {
    FakeResponse(
      headers: ["Content-Type": "application/json"], body: Data(), delivery: .endless(bytes: bytes))
  }

  /// Binance's real shape: the price is a string.
  public static func binance(price: String, symbol: String = "BTCUSDT", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(json: #"{"symbol":"\#(symbol)","price":"\#(price)"}"#, delay: delay)
  }

  /// Binance's klines as it writes them (docs/HISTORY.md): `[open time ms, "open", "high", "low",
  /// "close", "volume", close time ms, ...]`, oldest first: one 5-minute candle per price of
  /// `prices`, the last one opening at `lastStart` (seconds since 1970).
  public static func binanceKlines(_ prices: [String], lastStart: Int, period: Int = 300)
    -> FakeResponse
  {
    let first = lastStart - period * (prices.count - 1)
    let rows = prices.enumerated().map { index, price in
      let start = (first + period * index) * 1_000
      return "[\(start),\"\(price)\",\"\(price)\",\"\(price)\",\"\(price)\",\"1.5\","
        + "\(start + period * 1_000 - 1),\"100000.0\",12,\"0.7\",\"50000.0\",\"0\"]"
    }
    return FakeResponse(json: "[" + rows.joined(separator: ",") + "]")
  }

  /// A range's Binance klines up to the one under way now, as many as its request asks for
  /// (the day's 290 of 5 minutes, the week's hourly, the month's of 6 hours), flat at `price`.
  public static func binanceRange(_ range: ChartRange, flatAt price: String, now: Date = Date())
    -> FakeResponse
  {
    let period = Int(range.period.components.seconds)
    let slot = Int(now.timeIntervalSince1970) / period * period
    return binanceKlines(
      Array(repeating: price, count: range.candleCount(of: range.period)), lastStart: slot,
      period: period)
  }

  /// A day of Binance's 5-minute klines up to the one under way now (290, the day's request),
  /// flat at `price`.
  public static func binanceDay(flatAt price: String, now: Date = Date()) -> FakeResponse {
    let slot = Int(now.timeIntervalSince1970) / 300 * 300
    return binanceKlines(Array(repeating: price, count: 290), lastStart: slot)
  }

  /// CryptoCompare's real shape: `PRICE` is a JSON number, written here exactly as given.
  public static func cryptoCompare(
    price: String, currency: String = "USD", delay: Duration = .zero
  ) -> FakeResponse {
    FakeResponse(
      json: """
        {"RAW":{"MARKET":"CUSTOMAGG","FROMSYMBOL":"BTC","TOSYMBOL":"\(currency)","FLAGS":"0",\
        "PRICE":\(price),"LASTUPDATE":1763800000,"VOLUME24HOUR":9312.5},\
        "DISPLAY":{"FROMSYMBOL":"Ƀ","TOSYMBOL":"$","PRICE":"$ 68,910.1"}}
        """, delay: delay)
  }

  /// CryptoCompare without an API key since May 2026.
  public static let cryptoCompareKeyRequired = FakeResponse(
    status: 401,
    json: #"{"Data":{},"Err":{"type":2,"message":"API key required for this endpoint."}}"#)

  /// Coinbase's spot price: `amount` is a string.
  public static func coinbase(price: String, currency: String = "USD", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(
      json: #"{"data":{"amount":"\#(price)","base":"BTC","currency":"\#(currency)"}}"#,
      delay: delay)
  }

  /// Kraken's ticker: the last trade is `c[0]`, under a result key that differs from the pair
  /// asked for.
  public static func kraken(price: String, pair: String = "XXBTZUSD", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(
      json: """
        {"error":[],"result":{"\(pair)":{"a":["68871.00000","1","1.000"],\
        "b":["68870.90000","2","2.000"],"c":["\(price)","0.00100000"],\
        "v":["1234.5","2345.6"],"p":["68800.1","68750.2"],"t":[12345,23456],\
        "l":["68000.0","67000.0"],"h":["69000.0","69500.0"],"o":"68500.0"}}}
        """, delay: delay)
  }

  /// Bitstamp's ticker: every field is a string, the pair named twice (`pair`, `market`).
  public static func bitstamp(price: String, pair: String = "BTC/USD", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(
      json: """
        {"timestamp":"1763800000","open":"68500.00","high":"69000.00","low":"68000.00",\
        "last":"\(price)","volume":"1234.5","vwap":"68700.00","bid":"68874.00",\
        "ask":"68876.00","side":"0","open_24":"68400.00","percent_change_24":"0.69",\
        "market_type":"SPOT","pair":"\(pair)","market":"\(pair)"}
        """, delay: delay)
  }

  /// OKX's ticker: `code` "0", one ticker in `data`, every number a string (OKX's docs'
  /// example, as JKorf/OKX.Net's `GetTicker.txt` keeps it, with a BTC-USDT spot instrument).
  public static func okx(price: String, instrument: String = "BTC-USDT", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(
      json: """
        {"code":"0","msg":"","data":[{"instType":"SPOT","instId":"\(instrument)",\
        "last":"\(price)","lastSz":"0.1","askPx":"\(price)","askSz":"11","bidPx":"8888.88",\
        "bidSz":"5","open24h":"9000","high24h":"10000","low24h":"8888.88","volCcy24h":"2222",\
        "vol24h":"2222","sodUtc0":"2222","sodUtc8":"2222","ts":"1597026383085"}]}
        """, delay: delay)
  }

  /// Gemini's ticker: prices are strings; the volume object is keyed by both currencies.
  public static func gemini(price: String, delay: Duration = .zero) -> FakeResponse {
    FakeResponse(
      json: """
        {"bid":"68870.01","ask":"68871.99","last":"\(price)",\
        "volume":{"BTC":"2210.505328803","USD":"2135477.463379586263","timestamp":1483018200000}}
        """, delay: delay)
  }
}
