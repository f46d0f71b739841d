import BTCPriceAppComposition
import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The currency the app shows: chosen in the app, remembered, and followed by the widget.
@Suite("Choose the currency", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
@MainActor
struct ChooseTheCurrencyUseCaseTests {
  @Test func firstLaunch_showsTheRegionsCurrencyWhenSupported() {
    withDefaults { defaults in
      #expect(CurrencyPreference(defaults: defaults, regionCurrencyCode: "CHF").currency == .chf)
      #expect(CurrencyPreference(defaults: defaults, regionCurrencyCode: "SEK").currency == .usd)
      #expect(CurrencyPreference(defaults: defaults, regionCurrencyCode: nil).currency == .usd)
    }
  }

  @Test func chosenCurrency_isRememberedOverTheRegions() {
    withDefaults { defaults in
      CurrencyPreference(defaults: defaults, regionCurrencyCode: "CHF").save(.jpy)

      #expect(CurrencyPreference(defaults: defaults, regionCurrencyCode: "CHF").currency == .jpy)
    }
  }

  @Test func storedCodeThisBuildDoesNotKnow_fallsBackToTheRegions() {
    withDefaults { defaults in
      defaults.set("XBT", forKey: "currency")

      #expect(CurrencyPreference(defaults: defaults, regionCurrencyCode: "GBP").currency == .gbp)
    }
  }

  @Test func choosing_showsANewPriceInThatCurrencyRemembersItAndReloadsTheWidget() {
    withDefaults { defaults in
      let preference = CurrencyPreference(defaults: defaults, regionCurrencyCode: nil)
      let made = Locked<[String]>([])
      let reloads = Locked(0)
      let sut = PriceScreenModel(
        preference: preference,
        makePrice: { currency in
          made.append(currency.code)
          return Self.priceViewModel(currency)
        },
        reloadWidgets: { reloads.withValue { $0 += 1 } })
      let first = sut.price

      sut.choose(.eur)

      #expect(made.value == ["USD", "EUR"])
      #expect(sut.currency == .eur)
      #expect(sut.price !== first)
      #expect(sut.price.pairText == "BTC/EUR")
      #expect(preference.currency == .eur)
      #expect(reloads.value == 1)
    }
  }

  @Test func choosingTheShownCurrency_changesNothing() {
    withDefaults { defaults in
      let made = Locked(0)
      let sut = PriceScreenModel(
        preference: CurrencyPreference(defaults: defaults, regionCurrencyCode: "EUR"),
        makePrice: { currency in
          made.withValue { $0 += 1 }
          return Self.priceViewModel(currency)
        })

      sut.choose(.eur)

      #expect(made.value == 1)
    }
  }

  @Test func goingToTheBackground_reloadsTheWidget() {
    withDefaults { defaults in
      let reloads = Locked(0)
      let sut = PriceScreenModel(
        preference: CurrencyPreference(defaults: defaults, regionCurrencyCode: nil),
        makePrice: Self.priceViewModel, reloadWidgets: { reloads.withValue { $0 += 1 } })

      sut.phaseDidChange(to: .inactive)
      sut.phaseDidChange(to: .background)

      #expect(reloads.value == 1)
    }
  }

  @Test func picker_namesEachOfTheSevenCurrencies() {
    withDefaults { defaults in
      let sut = PriceScreenModel(
        preference: CurrencyPreference(defaults: defaults, regionCurrencyCode: nil),
        makePrice: Self.priceViewModel)

      #expect(
        sut.currencies.map(sut.title(of:)) == [
          "USD · US dollar", "EUR · Euro", "GBP · British pound", "JPY · Japanese yen",
          "CAD · Canadian dollar", "AUD · Australian dollar", "CHF · Swiss franc",
        ])
    }
  }

  // MARK: - Helpers

  private static func priceViewModel(_ currency: Currency) -> PriceViewModel {
    AppComposition.makePriceViewModel(
      client: StubHTTPClient.neverAnswering, clock: SteppedTestClock(), now: { Date() },
      cacheFileURL: nil, currency: currency, log: { _ in })
  }

  private func withDefaults(_ body: (UserDefaults) -> Void) {
    let suite = "btc-price-tests-\(UUID().uuidString)"
    let defaults = UserDefaults(suiteName: suite)!
    defer { defaults.removePersistentDomain(forName: suite) }
    body(defaults)
  }
}

/// A client whose requests never end (until cancelled).
