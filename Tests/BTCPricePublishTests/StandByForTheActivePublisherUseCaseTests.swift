import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Testing

@Suite("Stand by for the active publisher", .hangLimit(.seconds(30)))
struct StandByForTheActivePublisherUseCaseTests {
  private let interval = Duration.seconds(1)

  @Test func silence_isTwoIntervals() {
    #expect(StandbyRule(interval: .seconds(1)).silence == .seconds(2))
    #expect(StandbyRule(interval: .milliseconds(500)).silence == .seconds(1))
  }

  @Test func whileTheChannelChangesEveryLook_theStandbyStaysQuiet() {
    var sut = StandbyRule(interval: interval)
    for tick in 0..<20 {
      let (publish, change) = sut.observe("t:\(tick)", at: .seconds(tick))
      #expect(!publish)
      #expect(change == nil)
    }
  }

  @Test func anActivePublisherThatPublishesOnceInEachSlot_isNeverTakenOver_whateverItsJitter() {
    // The active one publishes somewhere in each of its slots; the standby looks at .5 s past
    // its own ticks. The worst case: late in one slot, early in the next, late again.
    let offsets: [Duration] = [.milliseconds(900), .milliseconds(10), .milliseconds(990), .zero]
    var published: [Duration] = []
    for slot in 0..<40 { published.append(.seconds(slot) + offsets[slot % offsets.count]) }
    var sut = StandbyRule(interval: interval)
    for look in 0..<39 {
      let now = Duration.seconds(look) + .milliseconds(500)
      let newest = published.lastIndex { $0 <= now }
      #expect(!sut.observe(newest.map { "m:\($0)" }, at: now).publish, "took over at \(now)")
    }
  }

  @Test func afterTheActiveOnesLastMessage_theStandbyPublishesOnItsThirdLook_withinThreeIntervals()
  {
    var sut = StandbyRule(interval: interval)
    // The active one's last message came at 9.9 s; the standby looks at each whole second.
    #expect(sut.observe("m:9", at: .seconds(9)).publish == false)
    #expect(sut.observe("m:last", at: .seconds(10)).publish == false)
    #expect(sut.observe("m:last", at: .seconds(11)).publish == false)
    let (publish, change) = sut.observe("m:last", at: .seconds(12))
    #expect(publish)
    #expect(change == .tookOver(silence: .seconds(2)))
    #expect(sut.isActive)
  }

  @Test func justUnderTwoIntervals_isNotYetSilence() {
    var sut = StandbyRule(interval: interval)
    _ = sut.observe("m:1", at: .zero)
    #expect(sut.observe("m:1", at: .milliseconds(1_999)).publish == false)
    #expect(sut.observe("m:1", at: .seconds(2)).publish)
  }

  @Test func aChannelThatNeverHadAMessage_isSilenceToo() {
    var sut = StandbyRule(interval: interval)
    _ = sut.observe(nil, at: .zero)
    _ = sut.observe(nil, at: .seconds(1))
    #expect(sut.observe(nil, at: .seconds(2)) == (true, .tookOver(silence: .seconds(2))))
  }

  @Test func active_itGoesOnWhileTheNewestMessageIsItsOwn_orTheChannelIsEmpty() {
    var sut = active()
    sut.published("own:1")
    #expect(sut.observe("own:1", at: .seconds(4)) == (true, nil))
    sut.published("own:2")
    #expect(sut.observe(nil, at: .seconds(5)) == (true, nil))
  }

  @Test func active_itStandsDownAtOnce_whenAnotherPublishersMessageIsNewest() {
    var sut = active()
    sut.published("own:1")
    #expect(sut.observe("other:7", at: .seconds(4)) == (false, .stoodDown))
    #expect(!sut.isActive)
    // And watches again from there: two quiet intervals before it takes over once more.
    #expect(sut.observe("other:7", at: .seconds(5)).publish == false)
    #expect(sut.observe("other:7", at: .seconds(6)).publish)
  }

  @Test func active_beforeItsFirstMessageIsKnown_itPublishes() {
    var sut = active()
    #expect(sut.observe("other:1", at: .seconds(4)) == (true, nil))
  }

  private func active() -> StandbyRule {
    var sut = StandbyRule(interval: interval)
    _ = sut.observe("m:1", at: .zero)
    _ = sut.observe("m:1", at: .seconds(2))
    return sut
  }
}
