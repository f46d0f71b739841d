import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Testing

@Suite("Choose the edge a tick is published to", .hangLimit(.seconds(30)))
struct ChooseAnEdgeUseCaseTests {
  private let policy = EdgeFailover.Policy(
    attemptTimeout: .milliseconds(500), firstRetry: .seconds(1), longestRetry: .seconds(10),
    refusalPause: .seconds(60))

  private func makeSUT(edges: Int = 2, jitter: Double = 1) -> EdgeFailover {
    EdgeFailover(edgeCount: edges, policy: policy, jitter: { jitter })
  }

  @Test func standardPolicy_givesHalfTheIntervalWithin500msAnd2s_restsFrom1sTo10s_aMinuteAfter4xx()
  {
    #expect(
      EdgeFailover.Policy.standard(interval: .seconds(1)).attemptTimeout == .milliseconds(500))
    #expect(EdgeFailover.Policy.standard(interval: .seconds(2)).attemptTimeout == .seconds(1))
    #expect(
      EdgeFailover.Policy.standard(interval: .milliseconds(200)).attemptTimeout
        == .milliseconds(500))
    #expect(EdgeFailover.Policy.standard(interval: .seconds(60)).attemptTimeout == .seconds(2))
    let standard = EdgeFailover.Policy.standard(interval: .seconds(1))
    #expect(standard.firstRetry == .seconds(1))
    #expect(standard.longestRetry == .seconds(10))
    #expect(standard.refusalPause == .seconds(60))
  }

  @Test func outcome_of2xxIsAccepted_5xx408And429Fail_other4xxAnd3xxAreRefusals() {
    for status in [200, 201, 202, 204, 299] {
      #expect(EdgeFailover.Outcome.of(status: status) == .accepted)
    }
    for status in [500, 502, 503, 504, 408, 429] {
      #expect(EdgeFailover.Outcome.of(status: status) == .failed("HTTP \(status)"))
    }
    for status in [199, 300, 301, 400, 401, 403, 404, 405, 413, 499] {
      #expect(EdgeFailover.Outcome.of(status: status) == .refused(status: status))
    }
  }

  @Test func candidates_areEveryEdgeInTheGivenOrder_whileNoneRests() {
    #expect(makeSUT(edges: 3).candidates(at: .zero) == [0, 1, 2])
  }

  @Test func aFailedEdge_restsForItsBackOff_thenIsFirstAgain() {
    var sut = makeSUT()
    #expect(sut.record(.failed("HTTP 502"), edge: 0, at: .seconds(10)) == .down(reason: "HTTP 502"))
    #expect(sut.candidates(at: .seconds(10)) == [1])
    #expect(sut.candidates(at: .milliseconds(10_999)) == [1])
    #expect(sut.candidates(at: .seconds(11)) == [0, 1])
  }

  @Test func theBackOff_doublesWhileTheEdgeKeepsFailing_upToTheLongest_andIsSaidOnce() {
    var sut = makeSUT()
    var now = Duration.zero
    var rests: [Duration] = []
    var notices: [EdgeFailover.Notice?] = []
    for _ in 0..<7 {
      notices.append(sut.record(.failed("no answer"), edge: 0, at: now))
      var rest = Duration.zero
      while !sut.candidates(at: now + rest).contains(0) { rest += .milliseconds(250) }
      rests.append(rest)
      now += rest
    }
    #expect(rests == [1, 2, 4, 8, 10, 10, 10].map { Duration.seconds($0) })
    #expect(notices == [.down(reason: "no answer")] + Array(repeating: nil, count: 6))
  }

  @Test func theRest_isHalfTheBackOffWithNoJitter_andAllOfItWithTheMost() {
    var calm = makeSUT(jitter: 0)
    _ = calm.record(.failed("x"), edge: 0, at: .zero)
    #expect(calm.candidates(at: .milliseconds(499)) == [1])
    #expect(calm.candidates(at: .milliseconds(500)) == [0, 1])
  }

  @Test func theRestsOfManyPublishers_spreadOverTheWholeSpan_betweenHalfAndAllOfTheBackOff() {
    // The jitter of a real run: 400 publishers whose edge failed at once come back spread over
    // 0.5–1 s, not in step at either end. (Each bound below fails by chance with a probability
    // far under 10⁻¹⁰⁰.)
    var backAtHalf = 0
    var backJustBeforeAll = 0
    for _ in 0..<400 {
      var sut = EdgeFailover(edgeCount: 1, policy: policy)
      _ = sut.record(.failed("x"), edge: 0, at: .zero)
      if sut.candidates(at: .milliseconds(500)) == [0] { backAtHalf += 1 }
      if sut.candidates(at: .milliseconds(990)) == [0] { backJustBeforeAll += 1 }
      #expect(sut.candidates(at: .milliseconds(499)).isEmpty)
      #expect(sut.candidates(at: .seconds(1)) == [0])
    }

    #expect(backAtHalf < 40, "most rests were exactly half the back-off")
    #expect(backJustBeforeAll > 340, "most rests were exactly all of the back-off")
  }

  @Test func anEdgeThatTakesATickAgain_isSaidBack_andItsBackOffStartsOver() {
    var sut = makeSUT()
    _ = sut.record(.failed("x"), edge: 0, at: .zero)
    _ = sut.record(.failed("x"), edge: 0, at: .seconds(1))
    #expect(sut.record(.accepted, edge: 0, at: .seconds(3)) == .back)
    #expect(sut.record(.accepted, edge: 0, at: .seconds(4)) == nil)
    #expect(sut.record(.failed("y"), edge: 0, at: .seconds(5)) == .down(reason: "y"))
    #expect(sut.candidates(at: .seconds(6)) == [0, 1])
  }

  @Test func a4xx_isSaidOnceWithItsStatus_andTheEdgeIsAskedAgainOnlyAfterTheRefusalPause() {
    var sut = makeSUT()
    #expect(
      sut.record(.refused(status: 401), edge: 0, at: .zero)
        == .refused(status: 401, pause: .seconds(60)))
    #expect(sut.candidates(at: .seconds(59)) == [1])
    #expect(sut.candidates(at: .seconds(60)) == [0, 1])
    #expect(sut.record(.refused(status: 401), edge: 0, at: .seconds(60)) == nil)
    #expect(sut.candidates(at: .seconds(61)) == [1])
    #expect(
      sut.record(.refused(status: 404), edge: 0, at: .seconds(120))
        == .refused(status: 404, pause: .seconds(60)))
    #expect(sut.record(.accepted, edge: 0, at: .seconds(180)) == .back)
  }
}
