import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Parse alert rules", .hangLimit(.seconds(30)))
struct ParseAlertRulesTests {
  @Test func thresholds_areReadExactly() throws {
    #expect(try AlertRule.parse("above:100000").kind == .above(100_000))
    #expect(
      try AlertRule.parse(" below:95000.10 ").kind == .below(Decimal(string: "95000.10")!))
    #expect(try AlertRule.parse("above:0.1").description == "above:0.1")
  }

  @Test func moves_takeAPercentAndAWindow() throws {
    #expect(
      try AlertRule.parse("move:2%/15m").kind == .move(percent: 2, window: .seconds(900)))
    #expect(
      try AlertRule.parse("move:0.5%/30s").kind
        == .move(percent: Decimal(string: "0.5")!, window: .seconds(30)))
    #expect(try AlertRule.parse("move:1%/24h").description == "move:1%/24h")
    #expect(try AlertRule.parse("move:1%/90m").description == "move:1%/90m")
  }

  @Test func moves_acceptTheirBoundsExactly() throws {
    #expect(try AlertRule.parse("move:5%/1s").kind == .move(percent: 5, window: .seconds(1)))
    #expect(
      try AlertRule.parse("move:1%/86400s").kind == .move(percent: 1, window: .seconds(86_400)))
    #expect(try AlertRule.parse("move:1%/86400s").description == "move:1%/24h")
    #expect(
      try AlertRule.parse("move:99.99%/1m").kind
        == .move(percent: Decimal(string: "99.99")!, window: .seconds(60)))
  }

  // Found by the alert-rule fuzz target (Fuzz/Findings/alert-rule): `Int64` reads a sign.
  @Test(arguments: ["move:1%/+6400s", "move:2%/+15m", "move:2%/-15m", "move:2%/+1h"])
  func aWindowWrittenWithASign_isRefused(text: String) {
    #expect(throws: AlertRuleError(text: text)) { try AlertRule.parse(text) }
  }

  // Found by the alert-rule fuzz target: the count of hours was multiplied before it was bounded.
  @Test(arguments: ["move:2%/211111111111111115h", "move:2%/9223372036854775807m"])
  func aWindowOfMoreUnitsThanASecondCountHolds_isRefusedNotACrash(text: String) {
    #expect(throws: AlertRuleError(text: text)) { try AlertRule.parse(text) }
  }

  @Test func aLongMalformedRule_isQuotedToItsFirst60Characters() {
    let text = "above:" + String(repeating: "9", count: 54) + "abcdefghij"

    #expect(
      AlertRuleError(text: text).description.hasPrefix(
        "invalid alert rule \"above:" + String(repeating: "9", count: 54) + "\": expected "))
  }

  @Test(arguments: [
    "", "above", "above:", "above:-1", "above:0", "above:1e5", "above:100,000", "above:$100000",
    "above:100000abc", "over:100000", "move:2/15m", "move:2%", "move:2%/15", "move:2%/0m",
    "move:2%/25h", "move:2%/86401s", "move:100%/1m", "move:0%/1m", "move:2%/15d", "move:2%/1.5m",
  ])
  func malformedRules_areRefusedWithTheAcceptedForms(text: String) {
    #expect(throws: AlertRuleError(text: text)) { try AlertRule.parse(text) }
    #expect(
      AlertRuleError(text: text).description.contains(
        "above:PRICE, below:PRICE or move:PERCENT%/WINDOW"))
  }
}
