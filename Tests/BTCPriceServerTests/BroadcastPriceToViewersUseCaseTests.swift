import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import NIOCore
import NIOPosix
import Testing

@testable import BTCPriceServer

@Suite("Broadcast each tick to every viewer", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct BroadcastPriceToViewersUseCaseTests {
  /// One fan-out per event loop, made by its loop's first viewer and kept for the others: a
  /// tick is then one job a loop, however many viewers it has (a fan-out per viewer would be a
  /// sink per viewer the broadcaster never lets go of).
  @Test func viewersOnOneLoop_shareItsFanOut_andAnotherLoopHasItsOwn() throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    defer { try? group.syncShutdownGracefully() }
    let loops = Array(group.makeIterator())
    let hub = StreamHub(broadcaster: PriceBroadcaster(initial: nothingKnown))

    let first = try #require(hub.fanout(for: loops[0]))
    #expect(hub.fanout(for: loops[0]) === first)
    let other = try #require(hub.fanout(for: loops[1]))
    #expect(other !== first)
    #expect(hub.fanout(for: loops[1]) === other)
  }

  @Test func publish_numbersTicksFromOneAfterTheRestoredState() {
    let sut = makeSUT(initial: nothingKnown)

    #expect(sut.latest.id == 0)
    #expect(sut.publish(fresh("68901.23")).id == 1)
    #expect(sut.publish(fresh("68902.00")).id == 2)
    #expect(sut.latest.state.priceText == "$68,902.00")
  }

  @Test func event_carriesTheJSONLine_andItsSSEFrameAddsThePagesTexts() {
    let event = makeSUT().publish(fresh("68901.23"))

    #expect(event.json == JSONLineRenderer.render(fresh("68901.23")))
    #expect(event.data == String(event.json.dropLast()) + #","view":"# + event.page.json + "}")
    #expect(event.page.priceText == "$68,901.23")
    #expect(
      String(buffer: event.frame) == "id: 1\nevent: price\ndata: \(event.data)\n\n")
  }

  @Test func events_drawTheLast60FreshValues_andWordTheChangeSinceTheTickBefore() {
    let sut = makeSUT()
    for cents in 1...61 { sut.publish(fresh("\(100 + cents).00")) }
    sut.publish(stale(quote("161.00")))
    let event = sut.publish(fresh("150.00"))

    #expect(event.page.sparklineLabel == "Price over the last 60 ticks")
    #expect(event.page.direction == "down")
    #expect(event.page.changeText == "▼ -$11.00")
  }

  // MARK: Starting and resuming a stream

  @Test func catchUp_withoutLastEventID_startsWithTheLatestEvent() {
    let sut = makeSUT()
    sut.publish(fresh("1.00"))
    sut.publish(fresh("2.00"))

    #expect(sut.catchUp(after: nil, upTo: sut.latest.id).map(\.id) == [2])
  }

  @Test func catchUp_withLastEventIDInTheRing_replaysOnlyWhatWasMissed() {
    let sut = makeSUT()
    for price in ["1.00", "2.00", "3.00", "4.00", "5.00"] { sut.publish(fresh(price)) }

    #expect(sut.catchUp(after: 2, upTo: 5).map(\.id) == [3, 4, 5])
  }

  @Test func catchUp_withTheLatestID_replaysNothing() {
    let sut = makeSUT()
    sut.publish(fresh("1.00"))

    #expect(sut.catchUp(after: 1, upTo: 1).isEmpty)
  }

  @Test(arguments: [
    999,  // from before a restart: this run's ids are smaller
    1,  // fell out of the ring
  ])
  func catchUp_withAnIDItCannotResumeFrom_startsWithTheLatest(lastEventID: Int) {
    let sut = makeSUT(configuration: .init(ringCapacity: 3, viewerBuffer: 16))
    for price in ["1.00", "2.00", "3.00", "4.00", "5.00"] { sut.publish(fresh(price)) }

    #expect(sut.catchUp(after: lastEventID, upTo: 5).map(\.id) == [5])
  }

  @Test func catchUp_fromTheEventJustBeforeTheRingsOldest_replaysTheWholeRing() {
    let sut = makeSUT(configuration: .init(ringCapacity: 3, viewerBuffer: 16))
    for price in ["1.00", "2.00", "3.00", "4.00", "5.00"] { sut.publish(fresh(price)) }

    // The ring holds 3, 4 and 5: a viewer who saw 2 missed exactly those.
    #expect(sut.catchUp(after: 2, upTo: 5).map(\.id) == [3, 4, 5])
  }

  @Test(arguments: [
    ("999999999999999999", 999_999_999_999_999_999),  // 18 digits: ours
    ("1000000000000000000", nil),  // 19: no id of ours, though it fits 64 bits
    ("", nil), ("12a", nil), ("-1", nil),
  ])
  func lastEventID_isReadOnlyAsOneOfOurIDs(header: String, id: Int?) {
    #expect(ServerSentEvents.lastEventID(header) == id)
  }

  @Test func catchUp_missingMoreThanABuffer_startsWithTheLatestInsteadOfABurst() {
    let sut = makeSUT(configuration: .init(ringCapacity: 100, viewerBuffer: 4))
    for index in 1...10 { sut.publish(fresh("\(index).00")) }

    #expect(sut.catchUp(after: 2, upTo: 10).map(\.id) == [10])
  }

  @Test func catchUp_stopsAtTheEventItIsAskedFor() {
    // A loop's fan-out catches a new viewer up only to what that loop has delivered; the newer
    // events reach it through the fan-out itself.
    let sut = makeSUT()
    for index in 1...5 { sut.publish(fresh("\(index).00")) }

    #expect(sut.catchUp(after: 1, upTo: 3).map(\.id) == [2, 3])
    #expect(sut.catchUp(after: nil, upTo: 3).map(\.id) == [3])
    #expect(sut.catchUp(after: 3, upTo: 3).isEmpty)
    #expect(sut.catchUp(after: 99, upTo: 3).map(\.id) == [3])
  }

  @Test func aViewerWhoMissedSixteenTicks_getsThemAll_andOneWhoMissedMore_startsFromTheLatest() {
    let sut = makeSUT()
    for index in 1...20 { sut.publish(fresh("\(index).00")) }

    #expect(sut.catchUp(after: 4, upTo: 20).map(\.id) == Array(5...20))
    #expect(sut.catchUp(after: 3, upTo: 20).map(\.id) == [20])
  }

  @Test func theSparklinesValues_stayAsManyAsItDraws_howeverLongTheServerRuns() {
    let sut = makeSUT()
    for index in 1...500 { sut.publish(fresh("\(index).00")) }

    #expect(sut.keptFreshValues == PricePagePresenter.sparklineLength)
  }

  @Test func ring_keepsOnlyTheNewestEvents() {
    let sut = makeSUT(configuration: .init(ringCapacity: 3, viewerBuffer: 16))
    for index in 1...5 { sut.publish(fresh("\(index).00")) }

    #expect(sut.recent.map(\.id) == [3, 4, 5])
  }

  // MARK: The sinks (one per event loop in the server)

  @Test func attach_answersTheLatestID_thenEveryTickReachesEverySinkInOrder() {
    let sut = makeSUT()
    sut.publish(fresh("1.00"))
    let (first, second) = (RecordingSink(), RecordingSink())

    #expect(sut.attach(first) == 1)
    #expect(sut.attach(second) == 1)
    sut.publish(fresh("2.00"))
    sut.publish(fresh("3.00"))

    #expect(first.eventIDs == [2, 3])
    #expect(second.eventIDs == [2, 3])
  }

  @Test func heartbeat_reachesEverySink() {
    let sut = makeSUT()
    let sink = RecordingSink()
    _ = sut.attach(sink)

    sut.heartbeat()

    #expect(sink.deliveries == [.heartbeat])
  }

  @Test func finish_endsEverySinkAndRefusesNewOnes() {
    let sut = makeSUT()
    let sink = RecordingSink()
    _ = sut.attach(sink)

    sut.finish()
    sut.publish(fresh("1.00"))

    #expect(sink.finished)
    #expect(sink.deliveries.isEmpty)
    #expect(sut.attach(RecordingSink()) == nil)
  }

  private func makeSUT(
    initial: PriceViewState = nothingKnown,
    configuration: PriceBroadcaster.Configuration = .init()
  ) -> PriceBroadcaster {
    PriceBroadcaster(initial: initial, configuration: configuration)
  }
}

extension PriceBroadcaster.Delivery {
  var eventID: Int? {
    if case .event(let event) = self { return event.id }
    return nil
  }
}
