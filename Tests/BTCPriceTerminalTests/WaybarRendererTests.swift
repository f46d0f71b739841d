import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Render ticks for Waybar", .hangLimit(.seconds(30)))
struct RenderForWaybarUseCaseTests {
  let euro = TickStates(currency: .eur, value: "68901.23")
  let up = TickStates.change("68888.89", "68901.23")
  let down = TickStates.change("68906.23", "68901.23")
  let flat = TickStates.change("68901.23", "68901.23")

  @Test func render_writesAFreshRiseWithKeysInFixedOrder() {
    #expect(
      WaybarRenderer.render(euro.fresh, change: up)
        == #"{"text":"€68,901.23","alt":"up","tooltip":"BTC/EUR €68,901.23\nLast updated Nov 22, 14:03:05 from Binance","class":"up"}"#
    )
  }

  @Test(
    arguments: [
      (Optional(TickStates.change("2", "1")), "down"),
      (Optional(TickStates.change("1", "1")), "unchanged"),
      (nil, "unchanged"),
    ])
  func render_namesTheDirectionInClassAndAlt(
    change: PriceTrendViewState.Change?, expected: String
  ) {
    let line = WaybarRenderer.render(euro.fresh, change: change)

    #expect(line.contains(#""alt":"\#(expected)""#))
    #expect(line.hasSuffix(#""class":"\#(expected)"}"#))
  }

  @Test func render_writesTheLastKnownValueWithTheBannerAsStale() {
    #expect(
      WaybarRenderer.render(euro.stale, change: flat)
        == #"{"text":"€68,901.23","alt":"stale","tooltip":"BTC/EUR €68,901.23\nLast updated Nov 22, 14:03:05 from Binance\nFailed to update value. Displaying last updated value from Nov 22, 14:03:05","class":"stale"}"#
    )
  }

  @Test func render_writesDashesWhenNothingIsKnownYet() {
    #expect(
      WaybarRenderer.render(euro.nothingKnown, change: nil)
        == #"{"text":"-","alt":"stale","tooltip":"BTC/EUR -\nLast updated -\nFailed to update value. Displaying last updated value from -","class":"stale"}"#
    )
  }

  @Test func render_usesTheTemplateForTheTextWithoutColours() throws {
    let template = try PriceTemplate("{arrow} {price} {change_pct}")

    #expect(
      WaybarRenderer.render(euro.fresh, change: down, template: template)
        == #"{"text":"▼ €68,901.23 -0.01%","alt":"down","tooltip":"BTC/EUR €68,901.23\nLast updated Nov 22, 14:03:05 from Binance","class":"down"}"#
    )
  }

  @Test(
    arguments: [
      "{price}", #"say "{price}" \ {{ok}}"#, "line\nbreak {price}", "tab\t\u{7}bell {stale}",
      "<span color='#f00'>{price}</span> & {source}", "\u{2028}{amount}",
    ])
  func render_alwaysWritesOneLineOfValidJSON(format: String) throws {
    let template = try PriceTemplate(format)
    for state in [euro.fresh, euro.stale, euro.nothingKnown] {
      let line = WaybarRenderer.render(state, change: up, template: template)

      #expect(!line.contains("\n"))
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
      #expect(Set(object.keys) == ["text", "alt", "tooltip", "class"])
      #expect(object["text"] == template.render(state, change: up))
      #expect(object["alt"] == object["class"])
      #expect(
        WaybarRenderer.Class.allCases.map(\.rawValue).contains(object["class"] ?? "") == true)
      #expect(object["tooltip"]?.hasPrefix("BTC/EUR ") == true)
    }
  }
}
