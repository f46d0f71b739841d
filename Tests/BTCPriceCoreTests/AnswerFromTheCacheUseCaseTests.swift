import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// `--once --max-age`: the freshness rule a status bar relies on. Got the wrong way round, every
/// run asks the exchange (ten times the requests with `--max-age 10`, and a ban risk).
@Suite("Answer from the cache while it is fresh enough", .hangLimit(.seconds(30)))
struct AnswerFromTheCacheUseCaseTests {
  struct Case: CustomTestStringConvertible, Sendable {
    /// How long before `now` the cached quote was received; negative is in the future.
    let age: Duration
    let maxAge: Duration
    let served: Bool
    var testDescription: String { "age \(age), max \(maxAge)" }
  }

  @Test(arguments: [
    Case(age: .zero, maxAge: .seconds(10), served: true),
    Case(age: .seconds(3), maxAge: .seconds(10), served: true),
    Case(age: .milliseconds(9_999), maxAge: .seconds(10), served: true),
    Case(age: .seconds(10), maxAge: .seconds(10), served: true),
    Case(age: .milliseconds(10_001), maxAge: .seconds(10), served: false),
    Case(age: .seconds(3_600), maxAge: .seconds(10), served: false),
    Case(age: .milliseconds(500), maxAge: .milliseconds(400), served: false),
    // A clock set back a little (another machine's clock, NTP) still counts as fresh...
    Case(age: .seconds(-1), maxAge: .seconds(10), served: true),
    // ...but a quote from further in the future says nothing about its age.
    Case(age: .milliseconds(-1_001), maxAge: .seconds(10), served: false),
    Case(age: .seconds(-5), maxAge: .seconds(10), served: false),
    Case(age: .seconds(-3_600), maxAge: .seconds(86_400), served: false),
  ])
  func storedQuote_isServedOnlyWhileItsAgeIsWithinTheMaximum(_ example: Case) {
    let now = Date(timeIntervalSince1970: 1_795_356_185)
    let cached = quote(at: now.addingTimeInterval(-seconds(example.age)))
    let sut = makeSUT(stored: cached)

    let answer = sut.storedQuote(notOlderThan: example.maxAge, at: now)

    #expect(answer == (example.served ? cached : nil))
  }

  @Test func storedQuote_withNothingStoredOrAnUnreadableStore_isNil() {
    let now = Date(timeIntervalSince1970: 1_795_356_185)

    #expect(makeSUT(stored: nil).storedQuote(notOlderThan: .seconds(10), at: now) == nil)
    #expect(
      makeSUT(store: PriceStoreSpy(loadError: "corrupt")).storedQuote(
        notOlderThan: .seconds(10), at: now) == nil)
  }

  // MARK: - Helpers

  private func makeSUT(stored: PriceQuote?) -> PriceCache {
    makeSUT(store: PriceStoreSpy(stored: stored))
  }

  private func makeSUT(store: PriceStoreSpy) -> PriceCache {
    PriceCache(store: store, clock: SteppedTestClock())
  }

  private func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
