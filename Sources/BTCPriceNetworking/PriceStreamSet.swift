import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The streams one process keeps open, chosen from its source chain: the first sources (in chain
/// order) that have a stream for the currency, at most two (the primary and its cross-check, as
/// few connections as the job needs), each on its own ``PriceStreamRunner``, all writing one
/// ``StreamPriceBoard``.
///
/// The composition roots build one, start ``run()`` beside the ticker, and hand
/// ``loader(chain:referee:onEvent:)`` to the tick in place of the bare REST chain.
public struct PriceStreamSet: Sendable {
  public let board: StreamPriceBoard
  public let runners: [PriceStreamRunner]
  /// The streams a tick reads, primary first.
  public let streams: [StreamFirstPriceLoader.Stream]
  private let connector: any WebSocketConnector

  /// - Parameters:
  ///   - sources: the chain's sources, in order.
  ///   - urls: by source id, a stream URL given with `--<name>-stream-url` (or its setting).
  ///   - inheritedLimit: a refusal of a stream (its source, its URL) an earlier run kept.
  ///   - onRefusal: a stream's refusal that sets a limit, with its cool-down (see
  ///     ``PriceStreamRunner``).
  ///   - interval: the ticks' interval: a tick reads a stream as alive for at most 1.5 intervals
  ///     of silence (``StreamFirstPriceLoader/Stream/aliveBound(silenceBound:interval:)``); nil
  ///     keeps each stream's own bound. The runners' reconnect watchdog keeps the stream's own
  ///     bound whatever the interval: a tick may pass over a stream that is only quiet, but a
  ///     connection is dropped (and a connection attempt spent) only when it is truly silent.
  public init(
    sources: [PriceSourceDefinition], currency: Currency, urls: [String: URL] = [:],
    interval: Duration? = nil,
    connector: any WebSocketConnector, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, maximumStreams: Int = 2,
    inheritedLimit: (PriceSource, URL) -> PriceSourceChain.InheritedLimit? = { _, _ in nil },
    onRefusal: @escaping @Sendable (PriceSource, URL, PriceSourceError, Duration) -> Void = {
      _, _, _, _ in
    },
    onEvent: @escaping @Sendable (PriceStreamEvent) -> Void = { _ in }
  ) {
    let board = StreamPriceBoard(clock: clock, currency: currency.code, now: now)
    let endpoints = Self.endpoints(
      sources: sources, currency: currency, urls: urls, maximumStreams: maximumStreams)
    self.board = board
    self.connector = connector
    self.runners = endpoints.map { endpoint in
      PriceStreamRunner(
        endpoint: endpoint, connector: connector, board: board, clock: clock,
        inheritedLimit: inheritedLimit(endpoint.source, endpoint.url),
        onRefusal: { cause, coolDown in onRefusal(endpoint.source, endpoint.url, cause, coolDown) },
        onEvent: onEvent)
    }
    self.streams = endpoints.map { endpoint in
      .init(
        source: endpoint.source,
        silenceBound: interval.map {
          StreamFirstPriceLoader.Stream.aliveBound(
            silenceBound: endpoint.silenceBound, interval: $0)
        } ?? endpoint.silenceBound)
    }
  }

  /// The streams a process opens, primary first: the first `maximumStreams` sources of the
  /// chain with a stream for the currency (`doctor` checks the same ones).
  public static func endpoints(
    sources: [PriceSourceDefinition], currency: Currency, urls: [String: URL] = [:],
    maximumStreams: Int = 2
  ) -> [PriceStreamEndpoint] {
    Array(
      sources.lazy
        .compactMap { source in
          try? source.stream?.endpoint(for: currency, base: urls[source.source.id])
        }
        .prefix(maximumStreams))
  }

  /// Keeps every stream connected until the task is cancelled.
  public func run() async {
    await withDiscardingTaskGroup { group in
      for runner in runners {
        group.addTask { await runner.run() }
      }
    }
  }

  /// Reads what the streams' connections have buffered onto the board; a tick calls it before
  /// it reads the board (a connector that reads every message as it comes returns at once).
  public func drain() async {
    await connector.drain()
  }

  /// The tick's loader: these streams first, then `chain`; `referee` settles a disagreement.
  public func loader(
    chain: PriceSourceChain, referee: PriceSourceChain?,
    onEvent: @escaping @Sendable (StreamFirstPriceLoader.Event) -> Void = { _ in }
  ) -> StreamFirstPriceLoader {
    StreamFirstPriceLoader(
      board: board, streams: streams, chain: chain, referee: referee, onEvent: onEvent)
  }
}
