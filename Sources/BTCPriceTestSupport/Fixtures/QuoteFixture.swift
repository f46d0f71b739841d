import BTCPriceCore
import Foundation

/// When the tests' quotes were received unless a test says otherwise: 2026-11-22 14:03:05 UTC.
public let quoteTime = Date(timeIntervalSince1970: 1_795_356_185)

/// The one quote the tests build: `value` (the literal text a payload carries), BTC in
/// `currency` (USD by default), from `source` (Binance), received at `timestamp` (``quoteTime``).
public func quote(
  _ value: String = "68901.23", currency: String = "USD", source: PriceSource = .binance,
  at timestamp: Date = quoteTime
) -> PriceQuote {
  PriceQuote(
    value: Decimal(string: value)!, currency: currency, timestamp: timestamp, source: source)
}
