import BTCPriceCore
import BTCPriceTestSupport
import Testing

@Suite(
  "Leave a failing source alone: circuit breaker", .timeLimit(.minutes(1)), .hangLimit(.seconds(30))
)
struct CircuitBreakerTests {
  typealias Breaker = CircuitBreaker<SteppedTestClock.Instant>
  let start = SteppedTestClock().now
  let timeout = PriceSourceError.timedOut(after: .milliseconds(800))

  func at(_ seconds: Double) -> SteppedTestClock.Instant {
    start.advanced(by: .milliseconds(Int64(seconds * 1000)))
  }

  @Test func staysClosedThroughTwoFailuresAndOpensOnTheThird() {
    var sut = Breaker()

    #expect(sut.recordFailure(timeout, at: at(0)) == nil)
    #expect(sut.recordFailure(timeout, at: at(1)) == nil)
    #expect(sut.phase == .closed)
    #expect(
      sut.recordFailure(timeout, at: at(2))
        == CircuitTransition(from: .closed, to: .open, coolDown: .seconds(5), cause: timeout))
    #expect(sut.admit(at: at(3)).admitted == false)
  }

  @Test func successResetsTheCountOfFailuresInARow() {
    var sut = Breaker()

    _ = sut.recordFailure(timeout, at: at(0))
    _ = sut.recordFailure(timeout, at: at(1))
    #expect(sut.recordSuccess() == nil)
    _ = sut.recordFailure(timeout, at: at(2))
    _ = sut.recordFailure(timeout, at: at(3))

    #expect(sut.phase == .closed)
  }

  @Test func coolDowns_areWrittenInTheUnitPeopleRead_roundedUp() {
    let texts: [(Duration, String)] = [
      (.milliseconds(999), "999 ms"), (.seconds(1), "1 s"), (.milliseconds(1001), "2 s"),
      (Duration(secondsComponent: 0, attosecondsComponent: 999_999_999_999_999_999), "999 ms"),
      (.seconds(119), "119 s"), (.seconds(120), "2 min"), (.seconds(121), "3 min"),
      (.seconds(7_199), "120 min"), (.seconds(7_200), "2 h"), (.seconds(7_201), "3 h"),
    ]

    #expect(texts.map(\.0.humanText) == texts.map(\.1))
  }

  @Test func letsOneProbeThroughOnceTheCoolDownIsOver() {
    var sut = Breaker()
    for second in 0..<3 { _ = sut.recordFailure(timeout, at: at(Double(second))) }

    #expect(sut.admit(at: at(6.999)).admitted == false)
    let probe = sut.admit(at: at(7))

    #expect(probe.admitted)
    #expect(probe.transition == CircuitTransition(from: .open, to: .halfOpen))
    #expect(sut.phase == .halfOpen)
  }

  @Test func closesWhenTheProbeSucceeds() {
    var sut = Breaker()
    for second in 0..<3 { _ = sut.recordFailure(timeout, at: at(Double(second))) }
    _ = sut.admit(at: at(7))

    #expect(sut.recordSuccess() == CircuitTransition(from: .halfOpen, to: .closed))
    #expect(sut.admit(at: at(7.1)) == (true, nil))
    // Back to counting from zero: two more failures leave it closed.
    _ = sut.recordFailure(timeout, at: at(8))
    _ = sut.recordFailure(timeout, at: at(9))
    #expect(sut.phase == .closed)
  }

  /// A success forgets the openings before it: the next run of failures starts again at 5 s and
  /// doubles from there, as the first did.
  @Test func afterASuccess_theCoolDownsStartAgainAtFiveSecondsAndDouble() {
    var sut = Breaker()
    for second in 0..<3 { _ = sut.recordFailure(timeout, at: at(Double(second))) }
    _ = sut.admit(at: at(7))
    _ = sut.recordFailure(timeout, at: at(7))  // a failed probe: 10 s
    _ = sut.admit(at: at(17))
    _ = sut.recordSuccess()

    var coolDowns: [Duration?] = []
    for second in 18..<21 {
      coolDowns.append(sut.recordFailure(timeout, at: at(Double(second)))?.coolDown)
    }
    _ = sut.admit(at: at(25))
    coolDowns.append(sut.recordFailure(timeout, at: at(25))?.coolDown)

    #expect(coolDowns == [nil, nil, .seconds(5), .seconds(10)])
  }

  @Test func doublesTheCoolDownAfterEachFailedProbeUpToFiveMinutes() {
    var sut = Breaker()
    for second in 0..<3 { _ = sut.recordFailure(timeout, at: at(Double(second))) }
    var now = 2.0
    var coolDowns: [Duration] = [.seconds(5)]
    for _ in 0..<8 {
      now += Double(coolDowns.last!.components.seconds)
      #expect(sut.admit(at: at(now)).admitted)
      coolDowns.append(try! #require(sut.recordFailure(timeout, at: at(now))?.coolDown))
    }

    #expect(
      coolDowns == [5, 10, 20, 40, 80, 160, 300, 300, 300].map { Duration.seconds($0) })
  }

  @Test func rateLimitOpensAtOnceForAsLongAsRetryAfterSays() {
    var sut = Breaker()
    let limited = PriceSourceError.rateLimited(status: 429, retryAfter: .seconds(42), message: nil)

    #expect(sut.recordFailure(limited, at: at(0))?.coolDown == .seconds(42))
    #expect(sut.admit(at: at(41.9)).admitted == false)
    #expect(sut.admit(at: at(42)).admitted)
  }

  @Test func banWithoutRetryAfterWaitsTwoMinutesAndRateLimitOneMinute() {
    var banned = Breaker()
    var limited = Breaker()

    let ban = banned.recordFailure(
      .rateLimited(status: 418, retryAfter: nil, message: nil), at: at(0))
    let limit = limited.recordFailure(
      .rateLimited(status: 429, retryAfter: nil, message: nil), at: at(0))

    #expect(ban?.coolDown == .seconds(120))
    #expect(limit?.coolDown == .seconds(60))
  }

  @Test(arguments: [401, 403, 451])
  func refusalOpensAtOnceForAnHour(status: Int) {
    var sut = Breaker()

    let opened = sut.recordFailure(.httpStatus(status, message: nil), at: at(0))

    #expect(opened?.coolDown == .seconds(3600))
    #expect(sut.admit(at: at(3599)).admitted == false)
    #expect(sut.admit(at: at(3600)).admitted)
  }

  @Test func otherStatusesCountAsOrdinaryFailures() {
    var sut = Breaker()

    #expect(sut.recordFailure(.httpStatus(500, message: nil), at: at(0)) == nil)
    #expect(sut.recordFailure(.httpStatus(404, message: nil), at: at(0)) == nil)
    #expect(sut.phase == .closed)
  }

  @Test func restTellsHowLongAndWhy() throws {
    var sut = Breaker()
    _ = sut.recordFailure(.httpStatus(451, message: "restricted"), at: at(0))

    let rest = try #require(sut.remainingCoolDown(at: at(600)))

    #expect(rest.remaining == .seconds(3000))
    #expect(rest.cause == .httpStatus(451, message: "restricted"))
  }
}
