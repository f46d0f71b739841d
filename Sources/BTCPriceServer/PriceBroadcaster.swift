import BTCPriceCore
import BTCPriceFeature
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One tick as the web sees it: its sequence number, the state, that state as the `--json`
/// object, the page's texts for it, and a ready-made Server-Sent Events frame (built once, shared
/// by every viewer).
public struct PriceEvent: Equatable, Sendable {
  /// The tick's sequence number: 1 for the first tick of this run, 0 for the state restored from
  /// the cache before it. Used as the SSE event id.
  public let id: Int
  public let state: PriceViewState
  /// Exactly the `--json` line for this state (without the newline).
  public let json: String
  /// What the page shows for this tick, worded by the presenter.
  public let page: PricePageViewState
  /// The event's data: the `--json` object with the page's texts added as `view`.
  public let data: String
  /// `id: <n>\nevent: price\ndata: <data>\n\n`.
  public let frame: ByteBuffer
  /// ``frame`` as one HTTP/1.1 chunk, for writing below the HTTP encoder.
  public let chunk: ByteBuffer

  public init(id: Int, state: PriceViewState, page: PricePageViewState) {
    self.id = id
    self.state = state
    self.json = JSONLineRenderer.render(state)
    self.page = page
    self.data = String(json.dropLast()) + ",\"view\":" + page.json + "}"
    self.frame = ByteBuffer(string: ServerSentEvents.priceFrame(id: id, json: data))
    self.chunk = ServerSentEvents.chunk(frame)
  }
}

/// Takes every tick synchronously, e.g. to hand it to an event loop. It must not block: it is
/// called on the ticker's thread, in tick order.
public protocol PriceEventSink: AnyObject, Sendable {
  func deliver(_ delivery: PriceBroadcaster.Delivery)
  /// The broadcaster has finished: the server is stopping.
  func finish()
}

/// Fans each tick out to every connected viewer without ever waiting for one.
///
/// Keeps the latest event (for `GET /` and `/api/price`), a ring of recent events (for
/// `Last-Event-ID` resume and the sparkline) and one bounded buffer per viewer. A viewer whose
/// buffer is full when a tick arrives has fallen behind: it is dropped (its `onDrop` closes the
/// connection) instead of being buffered without limit. Nothing here ever asks an exchange.
public final class PriceBroadcaster: Sendable {
  public struct Configuration: Sendable {
    /// Events kept for resume and the sparkline.
    public var ringCapacity: Int
    /// Deliveries a viewer may have waiting before it is dropped.
    public var viewerBuffer: Int

    public init(ringCapacity: Int = 120, viewerBuffer: Int = 16) {
      precondition(ringCapacity > 0 && viewerBuffer > 0)
      self.ringCapacity = ringCapacity
      self.viewerBuffer = viewerBuffer
    }
  }

  /// What a viewer's stream carries.
  public enum Delivery: Equatable, Sendable {
    case event(PriceEvent)
    /// Nothing happened; a comment keeps proxies and the browser from timing out.
    case heartbeat
  }

  public let configuration: Configuration
  private let state: Locked<State>

  private struct Viewer {
    let continuation: AsyncStream<Delivery>.Continuation
    let onDrop: @Sendable () -> Void
  }

  private struct State {
    var latest: PriceEvent
    var ring: [PriceEvent]
    /// The fresh values so far, oldest first, as many as the page's sparkline draws.
    var freshValues: [Decimal]
    var viewers: [Int: Viewer] = [:]
    var sinks: [ObjectIdentifier: any PriceEventSink] = [:]
    var nextViewer = 0
    var finished = false
    var dropped = 0
  }

  private let page: PricePagePresenter

  /// - Parameters:
  ///   - initial: what to show before the first tick (the cached value, or nothing).
  ///   - page: words each tick for the page, in the run's currency.
  public init(
    initial: PriceViewState, page: PricePagePresenter = PricePagePresenter(),
    configuration: Configuration = .init()
  ) {
    self.configuration = configuration
    self.page = page
    let event = PriceEvent(
      id: 0, state: initial,
      page: page.present(initial, previousValue: nil, recentValues: []))
    state = Locked(State(latest: event, ring: [event], freshValues: []))
  }

  public var latest: PriceEvent { state.withValue { $0.latest } }

  /// The ring, oldest first.
  public var recent: [PriceEvent] { state.withValue { $0.ring } }

  public var viewerCount: Int { state.withValue { $0.viewers.count } }

  /// Viewers dropped so far for falling behind.
  public var droppedCount: Int { state.withValue { $0.dropped } }

  /// Records a tick and hands it to every viewer.
  @discardableResult
  public func publish(_ viewState: PriceViewState) -> PriceEvent {
    let (event, laggards, sinks) = state.withValue {
      state -> (PriceEvent, [Viewer], [any PriceEventSink]) in
      if !viewState.isStale, let value = viewState.quote?.value {
        state.freshValues.append(value)
        if state.freshValues.count > PricePagePresenter.sparklineLength {
          state.freshValues.removeFirst()
        }
      }
      let event = PriceEvent(
        id: state.latest.id + 1, state: viewState,
        page: page.present(
          viewState, previousValue: state.latest.state.quote?.value,
          recentValues: state.freshValues))
      state.latest = event
      state.ring.append(event)
      if state.ring.count > configuration.ringCapacity {
        state.ring.removeFirst(state.ring.count - configuration.ringCapacity)
      }
      return (event, Self.deliver(.event(event), in: &state), Array(state.sinks.values))
    }
    for sink in sinks { sink.deliver(.event(event)) }
    drop(laggards)
    return event
  }

  /// Sends a heartbeat comment to every viewer.
  public func heartbeat() {
    let (laggards, sinks) = state.withValue { state in
      (Self.deliver(.heartbeat, in: &state), Array(state.sinks.values))
    }
    for sink in sinks { sink.deliver(.heartbeat) }
    drop(laggards)
  }

  /// Hands every later tick and heartbeat to `sink`; returns the id of the latest event, which
  /// the sink has then not been given, or nil once the broadcaster has finished.
  public func attach(_ sink: any PriceEventSink) -> Int? {
    state.withValue { state in
      guard !state.finished else { return nil }
      state.sinks[ObjectIdentifier(sink)] = sink
      return state.latest.id
    }
  }

  /// What a viewer who last saw `lastEventID` needs to catch up to `latestID`: every event after
  /// it when that is at most one buffer's worth and still in the ring, otherwise the event
  /// `latestID` alone (nothing when it fell out of the ring).
  public func catchUp(after lastEventID: Int?, upTo latestID: Int) -> [PriceEvent] {
    state.withValue { state in
      Self.catchUp(
        after: lastEventID, upTo: latestID, ring: state.ring, limit: configuration.viewerBuffer)
    }
  }

  /// A stream for one in-process viewer, or nil once the broadcaster has finished (the server is
  /// stopping). (The HTTP stream does not use this: its viewers are served by one sink per event
  /// loop, see `LoopFanout`.)
  ///
  /// It starts with what the viewer missed: with a `lastEventID` still in the ring, every event
  /// after it (at most one buffer's worth); otherwise (no id, an id too old, or one from before a
  /// restart) the latest event alone.
  ///
  /// - Parameter onDrop: called once if the viewer falls behind; it should close the connection.
  public func subscribe(lastEventID: Int? = nil, onDrop: @escaping @Sendable () -> Void = {})
    -> AsyncStream<Delivery>?
  {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Delivery.self, bufferingPolicy: .bufferingOldest(configuration.viewerBuffer))
    let key = state.withValue { state -> Int? in
      guard !state.finished else { return nil }
      let missed = Self.catchUp(
        after: lastEventID, upTo: state.latest.id, ring: state.ring,
        limit: configuration.viewerBuffer)
      for event in missed { continuation.yield(.event(event)) }
      let key = state.nextViewer
      state.nextViewer += 1
      state.viewers[key] = Viewer(continuation: continuation, onDrop: onDrop)
      return key
    }
    guard let key else {
      continuation.finish()
      return nil
    }
    // Outside the lock: termination can run synchronously inside finish().
    continuation.onTermination = { [weak self] _ in
      self?.state.withValue { _ = $0.viewers.removeValue(forKey: key) }
    }
    return stream
  }

  /// Ends every stream and refuses new ones: the server is stopping.
  public func finish() {
    let (viewers, sinks) = state.withValue { state -> ([Viewer], [any PriceEventSink]) in
      state.finished = true
      defer {
        state.viewers = [:]
        state.sinks = [:]
      }
      return (Array(state.viewers.values), Array(state.sinks.values))
    }
    for viewer in viewers { viewer.continuation.finish() }
    for sink in sinks { sink.finish() }
  }

  private static func catchUp(
    after lastEventID: Int?, upTo latestID: Int, ring: [PriceEvent], limit: Int
  ) -> [PriceEvent] {
    let known = ring.filter { $0.id <= latestID }
    guard let newest = known.last, let oldest = known.first else { return [] }
    if let lastEventID, lastEventID >= oldest.id - 1, lastEventID <= newest.id,
      newest.id - lastEventID <= limit
    {
      return known.filter { $0.id > lastEventID }
    }
    return [newest]
  }

  /// Yields to every viewer; removes and returns the ones whose buffer was full.
  private static func deliver(_ delivery: Delivery, in state: inout State) -> [Viewer] {
    var laggards: [Viewer] = []
    for (key, viewer) in state.viewers {
      switch viewer.continuation.yield(delivery) {
      case .enqueued: continue
      case .dropped:
        laggards.append(viewer)
        state.viewers[key] = nil
      case .terminated:
        state.viewers[key] = nil
      @unknown default:
        continue
      }
    }
    state.dropped += laggards.count
    return laggards
  }

  private func drop(_ laggards: [Viewer]) {
    for viewer in laggards {
      viewer.continuation.finish()
      viewer.onDrop()
    }
  }
}
