import BTCPriceServer
import BTCPriceTestSupport
import Testing

@Suite("Show the armed alert rules on the page", .hangLimit(.seconds(30)))
struct ShowAlertRulesOnThePageTests {
  @Test func theRules_areOneEscapedLineAndNothingWithoutRules() {
    #expect(
      PricePage.alertRulesLine("Alerts: above $100,000.00 · <b>")
        == #"<p id="alerts" class="alerts">Alerts: above $100,000.00 · &lt;b&gt; "#
        + #"<button id="notify" type="button" hidden>Notify me</button></p>"#)
    #expect(PricePage.alertRulesLine(nil).isEmpty)
  }
}
