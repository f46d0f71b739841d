import BTCPriceCore
import BTCPriceSettings
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Load alert rules from every layer", .hangLimit(.seconds(30)))
struct LoadAlertSettingsTests {
  @Test func theFile_takesAListOfRulesAndTheCommand() throws {
    let settings = try SettingsFile(path: "/config").parse(
      """
      alert:
        - above:100000
        - move:2%/15m
      on-alert: notify-send "BTC $BTC_PRICE_ALERT_RULE"
      alert-webhook: https://ntfy.sh/my-topic
      """, home: nil)

    #expect(settings.alerts?.map(\.description) == ["above:100000", "move:2%/15m"])
    #expect(settings.onAlert == #"notify-send "BTC $BTC_PRICE_ALERT_RULE""#)
    #expect(settings.alertWebhook == URL(string: "https://ntfy.sh/my-topic"))
    #expect(
      try SettingsFile(path: "/config").parse("alert: [below:90000.5]", home: nil).alerts
        == [AlertRule(.below(Decimal(string: "90000.5")!))])
  }

  @Test func theEnvironment_takesCommaSeparatedRules() throws {
    let settings = try Settings.fromEnvironment([
      "BTC_PRICE_ALERTS": "above:100000, below:90000", "BTC_PRICE_ON_ALERT": "say hi",
    ])

    #expect(settings.alerts?.map(\.description) == ["above:100000", "below:90000"])
    #expect(settings.onAlert == "say hi")
  }

  @Test func theCommandLinesRules_replaceTheLowerLayersList() throws {
    let commandLine = try Settings.fromCommandLine(["alert": "below:1"], home: nil)
    let file = try SettingsFile(path: "/config").parse("alert: [above:2, above:3]", home: nil)

    #expect(
      Settings.layered(commandLine: commandLine, environment: Settings(), file: file).alerts
        == [AlertRule(.below(1))])
  }

  @Test func aMalformedRule_isAnErrorNamingWhereItCameFromAndTheAcceptedForms() {
    #expect {
      try SettingsFile(path: "/config").parse("currency: EUR\nalert: [above:1, over:2]", home: nil)
    } throws: { error in
      "\(error)".hasPrefix("/config:2: alert: invalid alert rule \"over:2\"")
        && "\(error)".contains("expected above:PRICE, below:PRICE or move:PERCENT%/WINDOW")
    }
    #expect {
      try Settings.fromEnvironment(["BTC_PRICE_ALERTS": "above:1,"])
    } throws: { error in
      "\(error)".contains("BTC_PRICE_ALERTS") && "\(error)".contains("invalid alert rule \"\"")
    }
  }
}
