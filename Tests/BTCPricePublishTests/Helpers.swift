import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation

/// 2026-11-22 14:03:05 UTC
let receivedAt = Date(timeIntervalSince1970: 1_795_356_185)

let presenter = PricePresenter(
  timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

func fresh(_ value: String, source: PriceSource = .binance, at date: Date = receivedAt)
  -> PriceViewState
{
  presenter.present(.fresh(quote(value, source: source, at: date)))
}

let nothingKnown = presenter.presentRestored(nil)
