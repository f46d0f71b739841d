import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Render a --format template", .hangLimit(.seconds(30)))
struct RenderFormatTemplateUseCaseTests {
  let euro = TickStates(currency: .eur, value: "68901.23")
  let up = TickStates.change("68888.89", "68901.23")
  let down = TickStates.change("68906.23", "68901.23")
  let flat = TickStates.change("68901.23", "68901.23")
  let line = "{arrow} {price} {change} ({change_pct}){stale}"

  // MARK: Each arrow

  @Test func render_showsARise() throws {
    #expect(try render(line, euro.fresh, up) == "▲ €68,901.23 +€12.34 (+0.02%)")
  }

  @Test func render_showsAFall() throws {
    #expect(try render(line, euro.fresh, down) == "▼ €68,901.23 -€5.00 (-0.01%)")
  }

  @Test func render_showsNoChange() throws {
    #expect(try render(line, euro.fresh, flat) == "• €68,901.23 €0.00 (0.00%)")
  }

  @Test func render_leavesTheChangeEmptyOnTheFirstTick() throws {
    #expect(try render(line, euro.fresh, nil) == "• €68,901.23  ()")
  }

  // MARK: Fresh, stale, nothing known

  @Test func render_fillsEveryPlaceholderForAFreshValue() throws {
    let all = "{price}|{amount}|{currency}|{time}|{source}|{arrow}|{change}|{change_pct}|{stale}"

    #expect(
      try render(all, euro.fresh, up)
        == "€68,901.23|68901.23|EUR|Nov 22, 14:03:05|Binance|▲|+€12.34|+0.02%|")
  }

  @Test func render_marksTheLastKnownValueStale() throws {
    #expect(
      try render("{price} at {time} from {source} {stale}", euro.stale, flat)
        == "€68,901.23 at Nov 22, 14:03:05 from Binance stale")
    #expect(try render(line, euro.stale, flat) == "• €68,901.23 €0.00 (0.00%)stale")
    // Whatever it is compared with, an old value did not move.
    #expect(try render("{arrow}", euro.stale, up) == "•")
  }

  @Test func render_showsDashesWhenNothingIsKnownYet() throws {
    let all = "{price}|{amount}|{currency}|{time}|{source}|{arrow}|{change}|{change_pct}|{stale}"

    #expect(try render(all, euro.nothingKnown, nil) == "-|-|EUR|-|-|•|||stale")
  }

  @Test func render_showsThe24HourChange_andNothingWhileTheHistoryCannotSay() throws {
    let presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: .eur)
    let day = CandleSeries.day(endingAt: 1_795_356_000, currency: .eur) { _ in "70000" }
    let fall = presenter.present(.fresh(quote("68901.23", currency: "EUR")), dayHistory: day)
    let unknown = presenter.present(.fresh(quote("68901.23", currency: "EUR")), dayHistory: nil)
    let template = "{price} {change_24h} ({change_24h_pct})"

    #expect(try render(template, fall, up) == "€68,901.23 -€1,098.77 (-1.57%)")
    #expect(try render(template, unknown, up) == "€68,901.23  ()")
    // Coloured by its own direction, not the last tick's.
    #expect(
      try PriceTemplate("{change_24h}").render(fall, change: up, colors: true)
        == "\u{1B}[31m-€1,098.77\u{1B}[0m")
  }

  // MARK: Every period's change

  @Test func render_showsEachPeriodsChange_andNothingWhereTheHistoryCannotSay() throws {
    let presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: .eur)
    let day = CandleSeries.day(endingAt: 1_795_356_000, currency: .eur) { _ in "70000" }
    let state = presenter.present(
      .fresh(quote("68901.23", currency: "EUR")), histories: [.day: day])
    let template = "{change_1h} ({change_1h_pct}) [{change_7d}{change_30d_pct}]"

    #expect(try render(template, state, nil) == "-€1,098.77 (-1.57%) []")
    #expect(
      try PriceTemplate("{change_1h_pct}").render(state, change: up, colors: true)
        == "\u{1B}[31m-1.57%\u{1B}[0m", "coloured by its own direction")
  }

  // MARK: The holdings

  @Test func render_showsTheHoldingsWorthItsDaysChangeAndTheGain() throws {
    let presenter = PricePresenter(
      timestamps: .utc(precision: .seconds), currency: .eur,
      holdings: Holdings(amount: 0.5, costBasis: .init(total: 40_000, currency: .eur)))
    let day = CandleSeries.day(endingAt: 1_795_356_000, currency: .eur) { _ in "70000" }
    let state = presenter.present(
      .fresh(quote("68901.23", currency: "EUR")), histories: [.day: day])
    let template = "{value} {value_change_24h} {pnl} ({pnl_pct})"

    #expect(try render(template, state, up) == "€34,450.62 -€549.39 -€5,549.38 (-13.87%)")
    #expect(
      try PriceTemplate("{pnl}").render(state, change: up, colors: true)
        == "\u{1B}[31m-€5,549.38\u{1B}[0m", "coloured by its own direction")
    let unknown = presenter.present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))
    #expect(try render(template, unknown, nil) == "-   ()", "nothing known: a dash, then nothing")
  }

  @Test func theValuesChange_asksForTheDaysHistory_andTheValueAlone_forNone() throws {
    #expect(try PriceTemplate("{value_change_24h}").periodsShown == [.day])
    #expect(try PriceTemplate("{value} {pnl} {pnl_pct}").periodsShown.isEmpty)
    #expect(try PriceTemplate("{pnl}").showsHoldings)
    #expect(try !PriceTemplate("{price} {sats}").showsHoldings)
  }

  /// A run asks for the candles of the ranges its output shows, and no others.
  @Test func eachOutput_asksForTheRangesItShows() throws {
    #expect(TerminalSession.Mode.plain(colors: false).rangesShown.isEmpty)
    #expect(TerminalSession.Mode.json.rangesShown == [.day, .week, .month])
    #expect(TerminalSession.Mode.live(colors: false).rangesShown == [.day])
    let weekly = try PriceTemplate("{price} {change_7d_pct}")
    #expect(TerminalSession.Mode.template(weekly, colors: false).rangesShown == [.week])
    #expect(TerminalSession.Mode.waybar(weekly).rangesShown == [.week])
    #expect(TerminalSession.Mode.waybar(nil).rangesShown.isEmpty)
  }

  // MARK: Short prices and sats

  @Test func render_shortPricesAndSats_forAFreshValue() throws {
    let dollar = TickStates(currency: .usd, value: "68901.23")
    let yen = TickStates(currency: .jpy, value: "10300000")

    #expect(
      try render("{price_int}|{price_short}|{sats}", dollar.fresh, nil) == "$68,901|$68.9K|1451")
    #expect(
      try render("{price_int}|{price_short}|{sats}", yen.fresh, nil) == "¥10,300,000|¥10.3M|10")
  }

  /// Stale, they are the last known price's, as `{price}` is; with nothing known a price is `-`
  /// and the sats are left out, never a zero.
  @Test func render_shortPricesAndSats_staleAndWithNothingKnown() throws {
    let dollar = TickStates(currency: .usd, value: "68901.23")
    let template = "{price_int}|{price_short}|{sats}|{stale}"

    #expect(try render(template, dollar.stale, nil) == "$68,901|$68.9K|1451|stale")
    #expect(try render(template, dollar.nothingKnown, nil) == "-|-||stale")
  }

  @Test func render_colorsTheShortPricesAsThePrice() throws {
    #expect(
      try PriceTemplate("{price_short}").render(euro.fresh, change: up, colors: true)
        == "\u{1B}[32m€68.9K\u{1B}[0m")
  }

  @Test func render_keepsTheExactAmountAndTheYensNoDecimals() throws {
    let yen = TickStates(currency: .jpy, value: "12081078.5")
    let change = TickStates.change("12080000", "12081078.5", currency: .jpy)

    #expect(
      try render("{price} {amount} {change} {change_pct}", yen.fresh, change)
        == "¥12,081,079 12081078.5 +¥1,079 +0.01%")
  }

  // MARK: Escapes and errors

  @Test(
    arguments: [
      ("{{price}} = {price}", "{price} = €68,901.23"),
      ("}}{{", "}{"),
      ("{{{price}}}", "{€68,901.23}"),
      ("no placeholder at all", "no placeholder at all"),
      ("", ""),
      ("BTC: {price}\t{stale}", "BTC: €68,901.23\t"),
    ])
  func render_writesDoubledBracesAsOne(template: String, expected: String) throws {
    #expect(try render(template, euro.fresh, nil) == expected)
  }

  @Test func parse_refusesAnUnknownPlaceholderAndListsTheKnownOnes() {
    expectError(
      "{arrow} {prize}",
      #"unknown placeholder {prize} at column 9; known placeholders: {price}, {amount}, "#
        + "{currency}, {time}, {source}, {arrow}, {change}, {change_pct}, {change_24h}, {change_24h_pct}, {stale}, {alert}, {price_int}, {price_short}, {sats}, {change_1h}, {change_1h_pct}, {change_7d}, {change_7d_pct}, {change_30d}, {change_30d_pct}, {value}, {value_change_24h}, {pnl}, {pnl_pct}; "
        + "write {{ and }} for literal braces")
  }

  @Test(
    arguments: [
      ("{price", #""{" at column 1 has no matching "}""#),
      ("price}", #""}" at column 6 has no matching "{""#),
      ("{pr{ice}", #""{" at column 1 has no matching "}""#),
      ("{price}}", #""}" at column 8 has no matching "{""#),
      ("{}", "unknown placeholder {} at column 1"),
      ("{ price }", "unknown placeholder { price } at column 1"),
      ("{PRICE}", "unknown placeholder {PRICE} at column 1"),
      // A name over 30 characters (a pasted sentence) is cut there, so the message stays short.
      (
        "{\(String(repeating: "x", count: 30))}",
        "unknown placeholder {\(String(repeating: "x", count: 30))} at column 1"
      ),
      (
        "{\(String(repeating: "y", count: 29))zz}",
        "unknown placeholder {\(String(repeating: "y", count: 29))z…} at column 1"
      ),
    ])
  func parse_refusesUnbalancedBraces(template: String, problem: String) {
    expectError(template, problem + "; known placeholders: " + knownList)
  }

  @Test func parse_keepsTheTemplateAsWritten() throws {
    #expect(try PriceTemplate("{price} {{x}}").text == "{price} {{x}}")
  }

  // MARK: Colours

  @Test func render_coloursARiseGreenAndAFallRed() throws {
    let template = try PriceTemplate("{arrow} {price} {change} {change_pct} {source}")

    #expect(
      template.render(euro.fresh, change: up, colors: true)
        == "\u{1B}[32m▲\u{1B}[0m \u{1B}[32m€68,901.23\u{1B}[0m \u{1B}[32m+€12.34\u{1B}[0m "
        + "\u{1B}[32m+0.02%\u{1B}[0m Binance")
    #expect(
      template.render(euro.fresh, change: down, colors: true)
        == "\u{1B}[31m▼\u{1B}[0m \u{1B}[31m€68,901.23\u{1B}[0m \u{1B}[31m-€5.00\u{1B}[0m "
        + "\u{1B}[31m-0.01%\u{1B}[0m Binance")
  }

  @Test func render_highlightsStaleAndLeavesItsPricePlain() throws {
    let template = try PriceTemplate("{price} {stale}")

    #expect(
      template.render(euro.stale, change: flat, colors: true)
        == "€68,901.23 \u{1B}[30;43mstale\u{1B}[0m")
    #expect(template.render(euro.stale, change: flat) == "€68,901.23 stale")
  }

  // MARK: Helpers

  private var knownList: String {
    "{price}, {amount}, {currency}, {time}, {source}, {arrow}, {change}, {change_pct}, {change_24h}, {change_24h_pct}, {stale}, "
      + "{alert}, {price_int}, {price_short}, {sats}, {change_1h}, {change_1h_pct}, {change_7d}, {change_7d_pct}, {change_30d}, {change_30d_pct}, {value}, {value_change_24h}, {pnl}, {pnl_pct}; write {{ and }} for literal braces"
  }

  private func render(
    _ template: String, _ state: PriceViewState, _ change: PriceTrendViewState.Change?
  ) throws -> String {
    try PriceTemplate(template).render(state, change: change)
  }

  private func expectError(
    _ template: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      try PriceTemplate(template)
    } throws: { error in
      (error as? PriceTemplate.ParseError)?.description == message
    }
  }
}

/// The three states a tick can leave, as the presenter words them in a currency.
struct TickStates {
  /// The change from `old` to `new` as the presenter words it, in `currency`.
  static func change(_ old: String, _ new: String, currency: Currency = .eur)
    -> PriceTrendViewState.Change
  {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!),
      currency: currency
    ).presentChange(PriceChange(from: Decimal(string: old)!, to: Decimal(string: new)!))
  }

  let fresh: PriceViewState
  let stale: PriceViewState
  let nothingKnown: PriceViewState

  init(currency: Currency, value: String) {
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!),
      currency: currency)
    let quote = PriceQuote(
      value: Decimal(string: value)!, currency: currency.code,
      timestamp: Date(timeIntervalSince1970: 1_795_356_185),
      source: PriceSource(id: "binance", displayName: "Binance"))
    let failure = PriceFetchFailure(failures: [
      .init(source: quote.source, error: .timedOut(after: .milliseconds(800)))
    ])
    fresh = presenter.present(.fresh(quote))
    stale = presenter.present(.stale(lastKnown: quote, failure: failure))
    nothingKnown = presenter.present(.stale(lastKnown: nil, failure: failure))
  }
}
