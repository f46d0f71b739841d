import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTerminal
import BTCPriceTestSupport
import NIOCore
import Testing

@Suite("Broadcast each tick to every viewer", .timeLimit(.minutes(1)), .hangLimit(.seconds(10)))
struct BroadcastPriceToViewersUseCaseTests {
  @Test func publish_numbersTicksFromOneAfterTheRestoredState() {
    let sut = makeSUT(initial: nothingKnown)

    #expect(sut.latest.id == 0)
    #expect(sut.publish(fresh("68901.23")).id == 1)
    #expect(sut.publish(fresh("68902.00")).id == 2)
    #expect(sut.latest.state.priceText == "$68,902.00")
  }

  @Test func event_carriesTheJSONLineAndItsSSEFrame() {
    let event = makeSUT().publish(fresh("68901.23"))

    #expect(event.json == JSONLineRenderer.render(fresh("68901.23")))
    #expect(
      String(buffer: event.frame) == "id: 1\nevent: price\ndata: \(event.json)\n\n")
  }

  @Test func subscribe_withoutLastEventID_startsWithTheLatestEvent() async throws {
    let sut = makeSUT()
    sut.publish(fresh("1.00"))
    sut.publish(fresh("2.00"))

    let stream = try #require(sut.subscribe())
    sut.publish(fresh("3.00"))

    #expect(await take(2, from: stream).map(\.eventID) == [2, 3])
  }

  @Test func subscribe_withLastEventIDInTheRing_replaysOnlyWhatWasMissed() async throws {
    let sut = makeSUT()
    for price in ["1.00", "2.00", "3.00", "4.00", "5.00"] { sut.publish(fresh(price)) }

    let stream = try #require(sut.subscribe(lastEventID: 2))
    sut.publish(fresh("6.00"))

    #expect(await take(4, from: stream).map(\.eventID) == [3, 4, 5, 6])
  }

  @Test func subscribe_withTheLatestID_replaysNothing() async throws {
    let sut = makeSUT()
    sut.publish(fresh("1.00"))

    let stream = try #require(sut.subscribe(lastEventID: 1))
    sut.publish(fresh("2.00"))

    #expect(await take(1, from: stream).map(\.eventID) == [2])
  }

  @Test(arguments: [
    999,  // from before a restart: this run's ids are smaller
    1,  // fell out of the ring
  ])
  func subscribe_withAnIDItCannotResumeFrom_startsWithTheLatest(lastEventID: Int) async throws {
    let sut = makeSUT(configuration: .init(ringCapacity: 3, viewerBuffer: 16))
    for price in ["1.00", "2.00", "3.00", "4.00", "5.00"] { sut.publish(fresh(price)) }

    let stream = try #require(sut.subscribe(lastEventID: lastEventID))
    sut.publish(fresh("6.00"))

    #expect(await take(2, from: stream).map(\.eventID) == [5, 6])
  }

  @Test func subscribe_missingMoreThanABuffer_startsWithTheLatestInsteadOfABurst() async throws {
    let sut = makeSUT(configuration: .init(ringCapacity: 100, viewerBuffer: 4))
    for index in 1...10 { sut.publish(fresh("\(index).00")) }

    let stream = try #require(sut.subscribe(lastEventID: 2))
    sut.publish(fresh("11.00"))

    #expect(await take(2, from: stream).map(\.eventID) == [10, 11])
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

  @Test func ring_keepsOnlyTheNewestEvents() {
    let sut = makeSUT(configuration: .init(ringCapacity: 3, viewerBuffer: 16))
    for index in 1...5 { sut.publish(fresh("\(index).00")) }

    #expect(sut.recent.map(\.id) == [3, 4, 5])
  }

  @Test func slowViewer_isDroppedWhenItsBufferIsFull_whileOthersKeepEveryTick() async throws {
    let sut = makeSUT(configuration: .init(ringCapacity: 10, viewerBuffer: 3))
    let drops = Locked(0)
    // Never read: it starts with the latest event, so two more ticks fill its three places.
    let subscribed = sut.subscribe(onDrop: { drops.withValue { $0 += 1 } })
    let slow = try #require(subscribed)
    let fast = try #require(sut.subscribe())
    var fastIterator = fast.makeAsyncIterator()
    var seen: [Int?] = [await fastIterator.next()?.eventID]

    for index in 1...5 {
      sut.publish(fresh("\(index).00"))
      seen.append(await fastIterator.next()?.eventID)
    }

    #expect(drops.value == 1)
    #expect(sut.viewerCount == 1)
    #expect(sut.droppedCount == 1)
    #expect(seen == [0, 1, 2, 3, 4, 5])
    // What it had buffered is still delivered, then its stream ends.
    #expect(await take(10, from: slow).map(\.eventID) == [0, 1, 2])
  }

  @Test func heartbeat_reachesEveryViewer() async throws {
    let sut = makeSUT()
    let stream = try #require(sut.subscribe())

    sut.heartbeat()

    #expect(await take(2, from: stream) == [.event(sut.latest), .heartbeat])
  }

  @Test func finish_endsEveryStreamAndRefusesNewViewers() async throws {
    let sut = makeSUT()
    let stream = try #require(sut.subscribe())

    sut.finish()

    #expect(await take(10, from: stream).count == 1)
    #expect(sut.subscribe() == nil)
    #expect(sut.viewerCount == 0)
  }

  @Test func viewerThatGoesAway_isForgotten() async throws {
    let sut = makeSUT()
    let task = Task {
      let stream = sut.subscribe()!
      for await _ in stream {}
    }
    await waitUntil({ sut.viewerCount == 1 })

    task.cancel()
    await task.value

    await waitUntil({ sut.viewerCount == 0 })
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
