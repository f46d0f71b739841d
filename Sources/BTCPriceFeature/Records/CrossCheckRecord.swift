import BTCPriceCore

/// What the streams' cross-check decided on a tick where two sources disagreed, in `--json`'s
/// form (the `crossCheck` member of ``PriceRecord``): which price was kept off the screen and who
/// settled it, or the two prices nothing settled.
public enum CrossCheckRecord: Equatable, Sendable {
  /// One source's price, as `--json` prints it: the source's id and the exact decimal.
  public struct Price: Equatable, Sendable {
    public let source: String
    public let price: String

    public init(source: String, price: String) {
      self.source = source
      self.price = price
    }

    init(_ quote: PriceQuote) {
      self.init(source: quote.source.id, price: quote.value.plainText)
    }
  }

  /// `rejected` was not shown: the tick's price and the referee's agree, and it is far from both.
  case rejected(Price, referee: String)
  /// Two sources disagreed and no third settled it: the tick failed, and neither is shown.
  case unsettled(Price, Price)

  /// The record of a disagreement; nil when there was none (the sources agreed, or fewer than
  /// two were asked).
  public init?(_ outcome: CrossCheckOutcome?) {
    switch outcome {
    case .settled(_, let rejected, let referee):
      self = .rejected(Price(rejected), referee: referee.id)
    case .unsettled(let a, let b):
      self = .unsettled(Price(a), Price(b))
    case .agreed, nil:
      return nil
    }
  }
}
