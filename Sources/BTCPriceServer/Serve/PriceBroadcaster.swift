import BTCPriceCore
import BTCPriceFeature
import NIOConcurrencyHelpers
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
  /// The day's chart at this tick, for the answer to a plain-text client; nil without one.
  public let chart: ChartViewState?
  /// The event's data: the `--json` object with the page's texts added as `view`.
  public let data: String
  /// `id: <n>\nevent: price\ndata: <data>\n\n`.
  public let frame: ByteBuffer
  /// ``frame`` as one HTTP/1.1 chunk, for writing below the HTTP encoder.
  public let chunk: ByteBuffer

  public init(
    id: Int, state: PriceViewState, page: PricePageViewState, chart: ChartViewState? = nil
  ) {
    self.id = id
    self.state = state
    self.chart = chart
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

/// Hands each tick to the stream's sinks (one per event loop, see `LoopFanout`) without ever
/// waiting for one, and keeps what a viewer needs to start or resume.
///
/// Keeps the latest event (for `GET /` and `/api/price`), a ring of recent events (for
/// `Last-Event-ID` resume) and the fresh values the page's sparkline draws. Nothing here ever
/// asks an exchange; a viewer that falls behind is the sinks' to drop.
public final class PriceBroadcaster: Sendable {
  public struct Configuration: Sendable {
    /// Events kept for resume.
    public var ringCapacity: Int
    /// Events a resuming viewer is sent at most; one that missed more starts from the latest.
    public var viewerBuffer: Int

    public init(ringCapacity: Int = 120, viewerBuffer: Int = 16) {
      precondition(ringCapacity > 0 && viewerBuffer > 0)
      self.ringCapacity = ringCapacity
      self.viewerBuffer = viewerBuffer
    }
  }

  /// What a sink is handed.
  public enum Delivery: Equatable, Sendable {
    case event(PriceEvent)
    /// Nothing happened; a comment keeps proxies and the browser from timing out.
    case heartbeat
  }

  public let configuration: Configuration
  private let state: NIOLockedValueBox<State>

  private struct State {
    var latest: PriceEvent
    var ring: [PriceEvent]
    /// The fresh values so far, oldest first, as many as the page's sparkline draws.
    var freshValues: [Decimal]
    var sinks: [ObjectIdentifier: any PriceEventSink] = [:]
    var finished = false
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
    state = NIOLockedValueBox(State(latest: event, ring: [event], freshValues: []))
  }

  public var latest: PriceEvent { state.withLockedValue { $0.latest } }

  /// The ring, oldest first.
  public var recent: [PriceEvent] { state.withLockedValue { $0.ring } }

  /// How many fresh values are kept for the page's sparkline: at most what it draws, however
  /// long the server runs (its tests).
  var keptFreshValues: Int { state.withLockedValue { $0.freshValues.count } }

  /// Records a tick and hands it to every viewer.
  ///
  /// - Parameter chart: the day's chart (``PriceTick/chart``), which the page draws.
  @discardableResult
  public func publish(_ viewState: PriceViewState, chart: ChartViewState? = nil) -> PriceEvent {
    let (event, sinks) = state.withLockedValue { state -> (PriceEvent, [any PriceEventSink]) in
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
          recentValues: state.freshValues, chart: chart),
        chart: chart)
      state.latest = event
      state.ring.append(event)
      if state.ring.count > configuration.ringCapacity {
        state.ring.removeFirst(state.ring.count - configuration.ringCapacity)
      }
      return (event, Array(state.sinks.values))
    }
    for sink in sinks { sink.deliver(.event(event)) }
    return event
  }

  /// Sends a heartbeat comment to every viewer.
  public func heartbeat() {
    let sinks = state.withLockedValue { Array($0.sinks.values) }
    for sink in sinks { sink.deliver(.heartbeat) }
  }

  /// Hands every later tick and heartbeat to `sink`; returns the id of the latest event, which
  /// the sink has then not been given, or nil once the broadcaster has finished.
  public func attach(_ sink: any PriceEventSink) -> Int? {
    state.withLockedValue { state in
      guard !state.finished else { return nil }
      state.sinks[ObjectIdentifier(sink)] = sink
      return state.latest.id
    }
  }

  /// What a viewer who last saw `lastEventID` needs to catch up to `latestID`: every event after
  /// it when that is at most one buffer's worth and still in the ring, otherwise the event
  /// `latestID` alone (nothing when it fell out of the ring).
  public func catchUp(after lastEventID: Int?, upTo latestID: Int) -> [PriceEvent] {
    state.withLockedValue { state in
      Self.catchUp(
        after: lastEventID, upTo: latestID, ring: state.ring, limit: configuration.viewerBuffer)
    }
  }

  /// Ends every stream and refuses new ones: the server is stopping.
  public func finish() {
    let sinks = state.withLockedValue { state -> [any PriceEventSink] in
      state.finished = true
      defer { state.sinks = [:] }
      return Array(state.sinks.values)
    }
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
}
