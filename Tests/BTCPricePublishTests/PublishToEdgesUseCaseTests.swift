import BTCPriceCore
import BTCPricePublish
import BTCPriceRuntime
import BTCPriceServer
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Publish each tick to the edges", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct PublishToEdgesUseCaseTests {
  @Test func aTick_isPostedToTheFirstEdge_pagePriceThenStream_withServesBytesAndTheCredentials()
    async throws
  {
    let edges = ScriptedEdges()
    let sut = try makeSUT(["http://pub:s3cret@a.test:8081/pub", "http://b.test/pub"], edges)
    defer { sut.end() }
    let event = PriceBroadcaster(initial: nothingKnown).publish(fresh("68901.23"))
    sut.publisher.publish(EdgeMessage.messages(for: event), tick: 1)
    await waitUntil {
      sut.events.value.contains(.published(tick: 1, target: "http://***@a.test:8081/pub"))
    }

    let requests = edges.requests
    #expect(
      requests.map(\.url.absoluteString) == [
        "http://a.test:8081/pub/page", "http://a.test:8081/pub/price",
        "http://a.test:8081/pub/stream",
      ])
    #expect(
      requests.map { $0.header("Content-Type") } == [
        "text/html; charset=utf-8", "application/json", "application/json",
      ])
    #expect(
      requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) } == [
        PricePage.render(latest: event), event.json + "\n", event.data,
      ])
    #expect(requests.map { $0.header("X-EventSource-Event") } == [nil, nil, "price"])
    let basic = "Basic " + Data("pub:s3cret".utf8).base64EncodedString()
    #expect(requests.allSatisfy { $0.header("Authorization") == basic })
    #expect(!requests.contains { $0.url.absoluteString.contains("s3cret") })
  }

  @Test func anEdgeAnswering5xx_passesTheSameTickToTheNext_saysSoOnce_andRests() async throws {
    let edges = ScriptedEdges(["a.test": .status(502)])
    let sut = try makeSUT(["http://a.test/pub", "http://b.test/pub"], edges)
    defer { sut.end() }
    sut.publisher.publish(messages(), tick: 1)
    await waitUntil {
      sut.events.value.contains(.published(tick: 1, target: "http://b.test:80/pub"))
    }
    sut.publisher.publish(messages(), tick: 2)
    await waitUntil {
      sut.events.value.contains(.published(tick: 2, target: "http://b.test:80/pub"))
    }

    #expect(edges.requests.filter { $0.url.host == "a.test" }.count == 1)
    #expect(
      sut.events.value.filter(\.isWarning) == [
        .edge(target: "http://a.test:80/pub", .down(reason: "HTTP 502"))
      ])
  }

  @Test func anEdgeThatNeverAnswers_costsTheTickOneAttemptsTime_thenTheNextEdgeHasIt() async throws
  {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .never])
    let sut = try makeSUT(["http://a.test/pub", "http://b.test/pub"], edges, clock: clock)
    defer { sut.end() }
    sut.publisher.publish(messages(), tick: 1)
    await clock.advance(to: .milliseconds(499), afterSleeps: 1)
    #expect(!sut.events.value.contains { if case .published = $0 { true } else { false } })
    await clock.advance(to: .milliseconds(500))
    await waitUntil {
      sut.events.value.contains(.published(tick: 1, target: "http://b.test:80/pub"))
    }
    #expect(
      sut.events.value.first
        == .edge(target: "http://a.test:80/pub", .down(reason: "no answer within 0.5 s")))
  }

  @Test
  func
    anEdgeAnswering4xx_isAConfigurationErrorSaidOnceWithTheStatusAndNoPassword_notAskedEveryTick()
    async throws
  {
    let edges = ScriptedEdges(["a.test": .status(401)])
    let sut = try makeSUT(["https://u:pw@a.test/pub?token=t0k3n", "http://b.test/pub"], edges)
    defer { sut.end() }
    for tick in 1...5 {
      sut.publisher.publish(messages(), tick: tick)
      await waitUntil {
        sut.events.value.contains(.published(tick: tick, target: "http://b.test:80/pub"))
      }
    }
    #expect(edges.requests.filter { $0.url.host == "a.test" }.count == 1)
    let warnings = sut.events.value.compactMap(\.warning)
    #expect(
      warnings == [
        "publish: https://***@a.test:443/pub?*** answered HTTP 401: a configuration error (check the "
          + "URL, its path and its credentials); asking it again in 60 s"
      ])
    #expect(!warnings.joined().contains("pw") && !warnings.joined().contains("t0k3n"))
  }

  @Test func whenNoEdgeTakesATick_itIsDropped_andTheNextTickIsTriedAgain() async throws {
    let edges = ScriptedEdges(["a.test": .failure(.connectionRefused)])
    let sut = try makeSUT(["http://a.test/pub"], edges)
    defer { sut.end() }
    sut.publisher.publish(messages(), tick: 1)
    await waitUntil { sut.events.value.contains(.dropped(tick: 1)) }
    #expect(
      sut.events.value.first
        == .edge(target: "http://a.test:80/pub", .down(reason: "connection refused")))
  }

  @Test func publish_neverWaitsForAnEdge_andATickStillWaitingIsReplacedByTheNewest() async throws {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .never])
    let sut = try makeSUT(["http://a.test/pub", "http://b.test/pub"], edges, clock: clock)
    defer { sut.end() }
    // Tick 1 hangs on a.test; ticks 2 and 3 come meanwhile and publish() returns at once.
    sut.publisher.publish(messages(), tick: 1)
    await waitUntil { edges.requests.count == 1 }
    sut.publisher.publish(messages(), tick: 2)
    sut.publisher.publish(messages(), tick: 3)
    await clock.advance(to: .milliseconds(500), afterSleeps: 1)
    await waitUntil {
      sut.events.value.contains(.published(tick: 3, target: "http://b.test:80/pub"))
    }
    let published = sut.events.value.compactMap(\.publishedTick)
    #expect(published == [1, 3])
  }

  /// `btc-price publish` ending: the mailbox closes and the delivery loop returns, so the
  /// command can exit instead of waiting for a tick that never comes.
  @Test func finish_endsTheDeliveries() async throws {
    let sut = try makeSUT(["http://a.test/pub"], ScriptedEdges())
    defer { sut.end() }
    sut.publisher.publish(messages(), tick: 1)
    sut.publisher.finish()
    await sut.running.value
    #expect(sut.events.value == [.published(tick: 1, target: "http://a.test:80/pub")])
  }

  // MARK: - The standby

  /// nchan answers 404 for a channel nobody has published to yet: to a standby that is a
  /// channel with no message, which is silence, so it takes over as from any other silence.
  @Test func aStandby_whoseChannelWasNeverPublishedTo_takesOverAfterTwoQuietIntervals()
    async throws
  {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .channel])
    let sut = try makeSUT(["http://a.test/pub"], edges, clock: clock, standby: true)
    defer { sut.end() }
    await tickUntilTheStandbyTakesOver(sut, clock)
    #expect(sut.events.value.contains(.standby(.tookOver(silence: .seconds(2)))))
    let edgeNotices = sut.events.value.filter {
      if case .edge = $0 { return true }
      return false
    }
    #expect(edgeNotices.isEmpty, "a 404 there is no fault of the edge")
  }

  /// A standby's look that an edge does not answer counts against that edge as a publish would:
  /// it is said once and the edge rests, and the next edge is asked.
  @Test func aStandbysLook_thatAnEdgeRefuses_isSaid_andTheNextEdgeIsAsked() async throws {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .failure(.connectionRefused), "b.test": .channel])
    edges.newest = "m:primary"
    let sut = try makeSUT(
      ["http://a.test/pub", "http://b.test/pub"], edges, clock: clock, standby: true)
    defer { sut.end() }
    await clock.advance(to: .seconds(1))
    sut.publisher.publish(messages(), tick: 1)
    await waitUntil { sut.events.value.contains(.quiet(tick: 1)) }
    #expect(
      sut.events.value.first
        == .edge(target: "http://a.test:80/pub", .down(reason: "connection refused")))
    #expect(edges.requests.map { $0.url.host ?? "" } == ["a.test", "b.test"])
  }

  @Test func aStandby_looksAtTheStreamChannelBeforeEachTick_andStaysQuietWhileItChanges()
    async throws
  {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .channel])
    let sut = try makeSUT(["http://u:p@a.test/pub"], edges, clock: clock, standby: true)
    defer { sut.end() }
    for tick in 1...4 {
      edges.newest = "m:\(tick)"
      await clock.advance(to: .seconds(tick))
      sut.publisher.publish(messages(), tick: tick)
      await waitUntil { sut.events.value.contains(.quiet(tick: tick)) }
    }
    #expect(edges.requests.allSatisfy { $0.body == nil })
    #expect(
      edges.requests.map(\.url.absoluteString)
        == Array(repeating: "http://a.test/pub/stream", count: 4))
    #expect(
      edges.requests.allSatisfy {
        $0.header("Accept") == "text/json" && $0.header("Authorization") != nil
      })
  }

  @Test func aStandby_takesOverAfterTwoQuietIntervals_andStandsDownWhenAnotherPublishes()
    async throws
  {
    let clock = SteppedTestClock()
    let edges = ScriptedEdges(["a.test": .channel])
    edges.newest = "m:primary"
    let sut = try makeSUT(["http://a.test/pub"], edges, clock: clock, standby: true)
    defer { sut.end() }
    await tickUntilTheStandbyTakesOver(sut, clock)
    #expect(
      sut.events.value.suffix(2) == [
        .standby(.tookOver(silence: .seconds(2))),
        .published(tick: 3, target: "http://a.test:80/pub"),
      ])
    // Its own message is the newest: it goes on.
    await clock.advance(to: .seconds(4))
    sut.publisher.publish(messages(), tick: 4)
    await waitUntil {
      sut.events.value.contains(.published(tick: 4, target: "http://a.test:80/pub"))
    }
    // The active one is back.
    edges.newest = "m:primary-again"
    await clock.advance(to: .seconds(5))
    sut.publisher.publish(messages(), tick: 5)
    await waitUntil { sut.events.value.contains(.quiet(tick: 5)) }
    #expect(sut.events.value.suffix(2) == [.standby(.stoodDown), .quiet(tick: 5)])
  }

  // MARK: - Helpers

  private struct SUT {
    let publisher: EdgePublisher
    let events: Locked<[EdgePublisher.Event]>
    let running: Task<Void, Never>

    func end() {
      running.cancel()
    }
  }

  /// Ticks 1 and 2, each a second apart, left quiet; tick 3, published by the standby that
  /// takes over after two quiet intervals to `http://a.test/pub`.
  private func tickUntilTheStandbyTakesOver(_ sut: SUT, _ clock: SteppedTestClock) async {
    for tick in 1...2 {
      await clock.advance(to: .seconds(tick))
      sut.publisher.publish(messages(), tick: tick)
      await waitUntil { sut.events.value.contains(.quiet(tick: tick)) }
    }
    await clock.advance(to: .seconds(3))
    sut.publisher.publish(messages(), tick: 3)
    await waitUntil {
      sut.events.value.contains(.published(tick: 3, target: "http://a.test:80/pub"))
    }
  }

  private func makeSUT(
    _ urls: [String], _ edges: ScriptedEdges, clock: SteppedTestClock = SteppedTestClock(),
    standby: Bool = false
  ) throws -> SUT {
    let events = Locked<[EdgePublisher.Event]>([])
    let publisher = EdgePublisher(
      targets: try urls.map { try PublishTarget($0) }, client: edges, clock: clock,
      policy: .standard(interval: .seconds(1)),
      standby: standby ? StandbyRule(interval: .seconds(1)) : nil, jitter: { 1 },
      onEvent: { event in events.withValue { $0.append(event) } })
    return SUT(publisher: publisher, events: events, running: Task { await publisher.run() })
  }

  private func messages() -> [EdgeMessage] {
    EdgeMessage.messages(for: PriceBroadcaster(initial: nothingKnown).publish(fresh("68901.23")))
  }
}

extension EdgePublisher.Event {
  fileprivate var isWarning: Bool { warning != nil }

  fileprivate var publishedTick: Int? {
    if case .published(let tick, _) = self { return tick }
    return nil
  }
}

/// Edges by host: each answers as scripted (every publish 201 by default), and every request is
/// recorded.
private final class ScriptedEdges: BTCHTTPClient, Sendable {
  enum Script: Sendable {
    case status(Int)
    case failure(BTCHTTPClientError)
    case never
    /// nchan's publisher location with its channel info: a GET answers the stream channel's
    /// newest message id, a publish to the stream makes a new one.
    case channel
  }

  private let scripts: [String: Script]
  private let recorded = Locked<[BTCHTTPRequest]>([])
  private let newestID = Locked<String?>(nil)

  init(_ scripts: [String: Script] = [:]) {
    self.scripts = scripts
  }

  var requests: [BTCHTTPRequest] { recorded.value }

  /// The stream channel's newest message id; set by a test to play another publisher.
  var newest: String? {
    get { newestID.value }
    set { newestID.withValue { $0 = newValue } }
  }

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    let count = recorded.withValue {
      $0.append(request)
      return $0.count
    }
    switch scripts[request.url.host ?? ""] ?? .status(201) {
    case .status(let status):
      return BTCHTTPResponse(status: status, body: Data())
    case .failure(let error):
      throw error
    case .never:
      let (never, continuation) = AsyncStream.makeStream(of: Never.self)
      for await _ in never {}
      continuation.finish()
      throw CancellationError()
    case .channel:
      if request.body != nil, request.url.path.hasSuffix("/stream") {
        newestID.withValue { $0 = "own:\(count)" }
      }
      // A look at a channel nobody has published to is 404; a publish makes the channel.
      guard let id = newestID.value ?? (request.body == nil ? nil : "own:\(count)") else {
        return BTCHTTPResponse(status: 404, body: Data())
      }
      return BTCHTTPResponse(
        status: request.body == nil ? 200 : 201,
        body: Data(
          #"{"messages": 1, "requested": 0, "subscribers": 0, "last_message_id": "\#(id)" }"#
            .utf8))
    }
  }
}
