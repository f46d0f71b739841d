import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// The value of what the user holds: the amount and cost basis read strictly, the worth rounded
/// half up to the currency's minor unit, the day's change of that worth, and the gain only
/// against a cost basis in the shown currency.
@Suite("Value the holdings", .hangLimit(.seconds(30)))
struct ValueTheHoldingsUseCaseTests {
  private func decimal(_ text: String) throws -> Decimal {
    try #require(Decimal(string: text))
  }

  @Test(arguments: [
    ("0.25", "0.25"), ("1", "1"), ("0.00000001", "0.00000001"), ("21000000", "21000000"),
    ("0", "0"), ("007.50", "7.5"),
  ])
  func anAmount_isReadExactly(text: String, expected: String) throws {
    #expect(try Holdings.amount(parsing: text) == decimal(expected))
  }

  @Test func anAmountOfMoreThanEightDecimals_isRefused() {
    #expect(throws: Holdings.ParseError.amountTooPrecise("0.000000001")) {
      try Holdings.amount(parsing: "0.000000001")
    }
  }

  @Test func moreBitcoinThanWillEverExist_isRefused() {
    #expect(throws: Holdings.ParseError.amountTooLarge("21000000.00000001")) {
      try Holdings.amount(parsing: "21000000.00000001")
    }
  }

  @Test(arguments: ["-1", "+1", "1e3", "", " 1", "1.", ".5", "0x10", "one", "1,5", "1.2.3"])
  func anythingButDigits_isNotAnAmount(text: String) {
    #expect(throws: Holdings.ParseError.amountNotANumber(text)) {
      try Holdings.amount(parsing: text)
    }
  }

  @Test func aCostBasis_isATotalAndACurrency_inAnyCase() throws {
    #expect(
      try Holdings.CostBasis(parsing: "15000 USD")
        == Holdings.CostBasis(total: decimal("15000"), currency: .usd))
    #expect(
      try Holdings.CostBasis(parsing: "12500.50 eur")
        == Holdings.CostBasis(total: decimal("12500.5"), currency: .eur))
  }

  @Test func aCostBasisWithoutACurrencyOrWithAnUnknownOne_orNegative_isRefused() {
    #expect(throws: Holdings.ParseError.costBasisShape("15000")) {
      try Holdings.CostBasis(parsing: "15000")
    }
    #expect(throws: Holdings.ParseError.costBasisCurrency("XYZ")) {
      try Holdings.CostBasis(parsing: "15000 XYZ")
    }
    #expect(throws: Holdings.ParseError.costBasisTotal("-15000")) {
      try Holdings.CostBasis(parsing: "-15000 USD")
    }
  }

  @Test func theWorth_isRoundedHalfUpToTheCurrencysMinorUnit() throws {
    let holdings = Holdings(amount: try decimal("0.12345678"))

    // 0.12345678 × 68,901.23 = 8,506.32340… (cents); × 10,512,345 = 1,297,820.28… (whole yen).
    #expect(
      holdings.valued(at: try decimal("68901.23"), in: .usd).value == (try decimal("8506.32")))
    #expect(
      holdings.valued(at: try decimal("10512345"), in: .jpy).value == (try decimal("1297820")))
    // 0.5 × 0.01 = 0.005: half a cent rounds up.
    #expect(
      Holdings(amount: try decimal("0.5")).valued(at: try decimal("0.01"), in: .usd).value
        == (try decimal("0.01")))
  }

  @Test func theDaysChange_isTheAmountTimesThePricesMove_knownOnlyWithTheDayBefore() throws {
    let holdings = Holdings(amount: try decimal("0.5"))

    let moved = holdings.valued(
      at: try decimal("68901.23"), in: .usd, dayBefore: try decimal("70000"))
    let unknown = holdings.valued(at: try decimal("68901.23"), in: .usd)

    #expect(moved.change24h == (try decimal("-549.39")))  // 0.5 × −1,098.77 = −549.385
    #expect(unknown.change24h == nil)
  }

  @Test func theGain_isOverTheCostBasis_onlyInItsOwnCurrency() throws {
    let basis = Holdings.CostBasis(total: try decimal("15000"), currency: .usd)
    let holdings = Holdings(amount: try decimal("0.5"), costBasis: basis)

    let inDollars = holdings.valued(at: try decimal("68901.23"), in: .usd)
    let inEuros = holdings.valued(at: try decimal("63000"), in: .eur)

    #expect(inDollars.value == (try decimal("34450.62")))  // 34,450.615 rounds up
    #expect(inDollars.gain?.amount == (try decimal("19450.62")))
    #expect(inDollars.gain?.percent == (try decimal("129.67")))
    #expect(inEuros.gain == nil)
  }
}
