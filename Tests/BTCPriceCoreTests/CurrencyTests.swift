import BTCPriceCore
import BTCPriceTestSupport
import Testing

@Suite("Choose the currency", .hangLimit(.seconds(30)))
struct ChooseCurrencyUseCaseTests {
  @Test(arguments: ["eur", "EUR", "Eur", " eur ", "\teur"])
  func parse_readsCodesWhateverTheirCase(text: String) throws {
    #expect(try Currency.parse(text) == .eur)
  }

  @Test func parse_refusesAnUnknownCodeAndListsTheSupportedOnes() {
    #expect {
      try Currency.parse("xbt")
    } throws: { error in
      (error as? Currency.UnknownCurrency)?.description
        == #"unknown currency "xbt"; supported: USD, EUR, GBP, JPY, CAD, AUD, CHF"#
    }
  }

  @Test func parse_clipsALongUnknownValueInItsMessage() {
    #expect {
      try Currency.parse(String(repeating: "x", count: 50))
    } throws: { error in
      (error as? Currency.UnknownCurrency)?.description.hasPrefix(
        "unknown currency \"\(String(repeating: "x", count: 20))…\"; supported:") == true
    }
  }

  @Test func parse_quotesAnUnknownValueOf20CharactersWhole_andClipsOneOf21() {
    let twenty = String(repeating: "x", count: 20)

    #expect {
      try Currency.parse(twenty)
    } throws: { error in
      (error as? Currency.UnknownCurrency)?.description.hasPrefix(
        "unknown currency \"\(twenty)\"; supported:") == true
    }
    #expect {
      try Currency.parse(twenty + "y")
    } throws: { error in
      (error as? Currency.UnknownCurrency)?.description.hasPrefix(
        "unknown currency \"\(twenty)…\"; supported:") == true
    }
  }

  @Test func supported_haveTheirISO4217MinorUnitsAndSymbols() {
    #expect(
      Currency.supported.map { "\($0.code) \($0.symbol)|\($0.minorUnits)" } == [
        "USD $|2", "EUR €|2", "GBP £|2", "JPY ¥|0", "CAD CA$|2", "AUD A$|2", "CHF CHF |2",
      ])
  }

  @Test func named_findsOnlySupportedCodes() {
    #expect(Currency.named("chf") == .chf)
    #expect(Currency.named("BTC") == nil)
    #expect(Currency.named("") == nil)
  }
}
