import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Testing

/// A run's first tick waits (a bounded moment) for the price history only when its output shows
/// the 24-hour change: a status bar's `--once` with a plain line or a template without it is
/// never held up by a slow candle endpoint.
@Suite("Wait for the day only where it shows", .hangLimit(.seconds(30)))
struct WaitForTheDayOnlyWhereItShowsUseCaseTests {
  @Test func plainLines_andTemplatesWithoutIt_doNotShowTheDaysChange() throws {
    #expect(!TerminalSession.Mode.plain(colors: true).showsTheDaysChange)
    #expect(
      !TerminalSession.Mode.template(try PriceTemplate("{arrow} {price}"), colors: false)
        .showsTheDaysChange)
    #expect(!TerminalSession.Mode.waybar(nil).showsTheDaysChange)
    #expect(
      !TerminalSession.Mode.waybar(try PriceTemplate("₿ {price} {change_pct}"))
        .showsTheDaysChange)
  }

  @Test func json_theLivePanel_andTemplatesNamingIt_showTheDaysChange() throws {
    #expect(TerminalSession.Mode.json.showsTheDaysChange)
    #expect(TerminalSession.Mode.live(colors: false).showsTheDaysChange)
    #expect(
      TerminalSession.Mode.template(try PriceTemplate("{price} {change_24h}"), colors: true)
        .showsTheDaysChange)
    #expect(TerminalSession.Mode.waybar(try PriceTemplate("{change_24h_pct}")).showsTheDaysChange)
  }
}
