import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How much bitcoin the user holds and, if they said, what they paid for it in all: what
/// `--holdings` and `--cost-basis` read, and what the value, its day's change and the gain are
/// worked out from. Private to the machine: nothing that serves, publishes or logs carries it.
public struct Holdings: Equatable, Sendable {
  /// Bitcoin, exact, at most 8 decimals (a satoshi), from 0 to 21,000,000.
  public let amount: Decimal
  public let costBasis: CostBasis?

  /// What was paid for the holdings in all, in the currency it was paid in.
  public struct CostBasis: Equatable, Sendable {
    public let total: Decimal
    public let currency: Currency

    public init(total: Decimal, currency: Currency) {
      self.total = total
      self.currency = currency
    }

    /// `15000 USD`, `12500.50 eur`: a plain number, zero or more, then a supported currency.
    public init(parsing text: String) throws(Holdings.ParseError) {
      let parts = text.split(whereSeparator: \.isWhitespace)
      guard parts.count == 2 else { throw .costBasisShape(text) }
      guard let total = Holdings.plainNumber(String(parts[0])) else {
        throw .costBasisTotal(String(parts[0]))
      }
      guard let currency = Currency.named(String(parts[1])) else {
        throw .costBasisCurrency(String(parts[1]))
      }
      self.init(total: total, currency: currency)
    }
  }

  /// Why a holding or a cost basis was refused, in the words the usage error shows after the
  /// option's or the settings line's name.
  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case amountNotANumber(String)
    case amountTooPrecise(String)
    case amountTooLarge(String)
    case costBasisShape(String)
    case costBasisTotal(String)
    case costBasisCurrency(String)

    public var description: String {
      switch self {
      case .amountNotANumber(let text):
        "\"\(text)\" is not an amount of bitcoin: write it as digits, e.g. 0.25"
      case .amountTooPrecise(let text):
        "\"\(text)\" has more than 8 decimals: a satoshi is the smallest amount"
      case .amountTooLarge(let text):
        "\"\(text)\" is more bitcoin than will ever exist (21,000,000)"
      case .costBasisShape(let text):
        "\"\(text)\" is not a total and a currency: write e.g. \"15000 USD\""
      case .costBasisTotal(let text):
        "\"\(text)\" is not a total paid: write it as digits, zero or more, e.g. 15000.50"
      case .costBasisCurrency(let text):
        "\"\(text)\" is not a currency btc-price knows ("
          + Currency.supported.map(\.code).joined(separator: ", ") + ")"
      }
    }
  }

  public static let largestAmount = Decimal(21_000_000)

  public init(amount: Decimal, costBasis: CostBasis? = nil) {
    self.amount = amount
    self.costBasis = costBasis
  }

  /// `0.25`, `1`, `0.00000001`: digits with at most 8 decimals, no sign, no exponent.
  public static func amount(parsing text: String) throws(ParseError) -> Decimal {
    guard let amount = plainNumber(text) else { throw .amountNotANumber(text) }
    if let point = text.firstIndex(of: "."), text[text.index(after: point)...].count > 8 {
      throw .amountTooPrecise(text)
    }
    guard amount <= largestAmount else { throw .amountTooLarge(text) }
    return amount
  }

  /// What the holdings are worth at `price` in `currency`, with the day's change of that worth
  /// when the price a day before is known, and the gain when the cost basis is in `currency`.
  public func valued(at price: Decimal, in currency: Currency, dayBefore: Decimal? = nil)
    -> HoldingsValue
  {
    let scale = currency.minorUnits
    let value = (amount * price).roundedHalfUp(scale: scale)
    let change = dayBefore.map { (amount * (price - $0)).roundedHalfUp(scale: scale) }
    let gain = costBasis.flatMap { basis in
      basis.currency == currency ? PriceChange(from: basis.total, to: value) : nil
    }
    return HoldingsValue(amount: amount, value: value, change24h: change, gain: gain)
  }

  /// Digits, with a point and more digits if any: no sign, no exponent, no spaces.
  static func plainNumber(_ text: String) -> Decimal? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard !text.isEmpty, text.utf8.count <= 40,
      parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
    else { return nil }
    return ExactDecimal.parse(text, grammar: .plain)
  }
}

/// The holdings at one price: their worth (rounded half up to the currency's minor unit), its
/// change since the day before, and the gain over the cost basis.
public struct HoldingsValue: Equatable, Sendable {
  public let amount: Decimal
  public let value: Decimal
  /// Nil when the price a day before is not known.
  public let change24h: Decimal?
  /// Nil without a cost basis, or with one in another currency than the one shown. With a
  /// total of zero its percent is 0, as ``PriceChange`` has it for a start of zero.
  public let gain: PriceChange?
}
