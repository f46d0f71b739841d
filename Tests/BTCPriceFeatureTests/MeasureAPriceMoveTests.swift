import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceChange`: the amount, the percentage of the old value rounded half-up to two decimals,
/// and the direction.
@Suite("Measure a price move", .hangLimit(.seconds(30)))
struct MeasureAPriceMoveTests {
  @Test(arguments: [
    ("68901.23", "68913.57", "12.34", "0.02", PriceChange.Direction.up),
    ("200", "199", "-1", "-0.5", .down),
    ("3", "4", "1", "33.33", .up),
    ("3", "5", "2", "66.67", .up),
    ("68901.23", "68901.23", "0", "0", .unchanged),
  ])
  func aMove_isItsAmountItsRoundedPercentAndItsDirection(
    old: String, new: String, amount: String, percent: String, direction: PriceChange.Direction
  ) throws {
    let change = PriceChange(
      from: try #require(Decimal(string: old)), to: try #require(Decimal(string: new)))

    #expect(change.amount == Decimal(string: amount))
    #expect(change.percent == Decimal(string: percent))
    #expect(change.direction == direction)
  }

  /// A move from nothing (a history whose open was 0, which no exchange should send) has no
  /// percentage: 0 %, never a division by zero's NaN in a line or a widget.
  @Test func aMoveFromZero_isZeroPercent() {
    let change = PriceChange(from: 0, to: 5)

    #expect(change.percent == 0)
    #expect(change.amount == 5)
    #expect(change.direction == .up)
  }
}
