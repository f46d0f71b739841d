import BTCPriceCore
import BTCPricePersistence
import BTCPricePublish
import BTCPriceServer
import BTCPriceSettings
import BTCPriceSources
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price doctor`: asks every source once, opens every stream the ticks read once and asks
/// every exchange with candles for the day's once, side by side, and says how far each got, with
/// the settings (and where each came from), the files and the limits in effect. Never asks a
/// source, opens a stream or asks for candles where an earlier run's limit rests it.
/// ``DoctorReport`` renders what it finds.
public struct Doctor: Sendable {
  private let options: ResolvedOptions
  private let client: any BTCHTTPClient
  private let probe: StreamProbe
  private let edges: [PublishTarget]
  private let now: @Sendable () -> Date

  /// - Parameters:
  ///   - client: asks the sources (the command line's gives each request 10 s).
  ///   - probe: opens the streams.
  ///   - edges: the edges `btc-price publish` would publish to (`BTC_PRICE_PUBLISH_URLS`), each
  ///     asked once (``EdgeProbe``) and listed with the settings, credentials redacted.
  public init(
    options: ResolvedOptions, client: any BTCHTTPClient, probe: StreamProbe,
    edges: [PublishTarget] = [], now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.options = options
    self.client = client
    self.probe = probe
    self.edges = edges
    self.now = now
  }

  public func report() async -> DoctorReport {
    let configuration = options.configuration
    let sourceLimits = options.limitStore.map {
      SourceLimits(store: $0, targets: configuration.limitTargets, now: now)
    }
    let limits = sourceLimits?.restore() ?? [:]
    // Side by side: behind a firewall that drops packets every source waits out its 10 s, and
    // one after the other that was most of a minute before doctor said anything.
    async let streams = Self.sideBySide(streamEndpoints(limits: sourceLimits)) { endpoint in
      await streamCheck(endpoint, limits: sourceLimits)
    }
    async let history = historyChecks(limits: sourceLimits)
    let markets = configuration.marketURLs
    let checks = await Self.sideBySide(configuration.sources) { definition in
      await sourceCheck(
        definition, url: (try? markets[definition.source.id]?.get()) ?? definition.defaultURL,
        limit: limits[definition.source.id])
    }
    var published: [DoctorReport.Setting] = []
    for edge in edges {
      let verdict = await EdgeProbe.check(
        edge, client: client, clock: ContinuousClock(), timeout: .seconds(5))
      published.append(
        .init(
          name: "publish", value: "\(edge.redacted): \(verdict)",
          origin: "$\(PublishTarget.environmentVariable)"))
    }
    return DoctorReport(
      checks: checks, streams: await streams, history: await history,
      settings: settings + published,
      files: files(now: now()),
      limits: limits.sorted(by: { $0.key < $1.key }).map { id, limit in
        "\(id): not asked for \(limit.remaining.humanText) (\(limit.cause))"
      })
  }

  /// Asks `definition` once at its market's `url`, unless an earlier run's `limit` rests it.
  private func sourceCheck(
    _ definition: PriceSourceDefinition, url: URL, limit: PriceSourceChain.InheritedLimit?
  ) async -> DoctorCheck {
    let id = definition.source.id
    let route = options.proxies.explain(for: url)
    if let limit {
      return DoctorCheck(
        source: id, url: url.absoluteString, route: route,
        outcome: .notAsked(Self.resting(limit)), latency: nil)
    }
    let clock = ContinuousClock()
    let start = clock.now
    let outcome: DoctorCheck.Outcome
    do {
      let loader = RemotePriceLoader(
        client: client, definition: definition, currency: options.configuration.currency,
        url: url, apiKey: options.configuration.apiKeys[id], now: now)
      outcome = .price(try await loader.load())
    } catch let error as PriceSourceError {
      outcome = .failed(error)
    } catch {
      outcome = .failed(.unreachable("\(error)"))
    }
    return DoctorCheck(
      source: id, url: url.absoluteString, route: route, outcome: outcome,
      latency: clock.now - start)
  }

  /// The streams a run opens at its start (``PriceStreamSet/Plan/openAtStart``): the primary's
  /// and the cross-check's, and the standby's when one of them rests after an earlier run's
  /// refusal, in the ticks' order.
  private func streamEndpoints(limits: SourceLimits?) -> [PriceStreamEndpoint] {
    let configuration = options.configuration
    return PriceStreamSet.plan(
      sources: configuration.sources, currency: configuration.currency,
      urls: configuration.streamURLs,
      inheritedLimit: { source, url in limits?.streamLimit(source: source.id, url: url) }
    ).openAtStart
  }

  /// Opens `endpoint` once, unless streams are off or it refused us earlier.
  private func streamCheck(_ endpoint: PriceStreamEndpoint, limits: SourceLimits?) async
    -> DoctorStreamCheck
  {
    func notAsked(_ reason: String) -> DoctorStreamCheck {
      DoctorStreamCheck(
        source: endpoint.source.id, url: endpoint.url.absoluteString,
        route: options.proxies.explain(for: endpoint.url), outcome: .notAsked(reason),
        latency: nil)
    }
    guard options.stream else { return notAsked("streams are off (no-stream)") }
    if let limit = limits?.streamLimit(source: endpoint.source.id, url: endpoint.url) {
      return notAsked(Self.resting(limit))
    }
    return await probe.check(endpoint)
  }

  /// The day's candles asked once of every exchange of the chain that has them in the currency,
  /// at the URL a run would ask (`--<name>-candles-url`); nil when the history is off.
  private func historyChecks(limits: SourceLimits?) async -> [DoctorHistoryCheck]? {
    let configuration = options.configuration
    guard configuration.history else { return nil }
    let loaders = CandleSourceDefinition.serving(
      configuration.currency, from: configuration.sources
    ).compactMap {
      try? RemoteCandleLoader(
        client: client, definition: $0, currency: configuration.currency,
        url: configuration.candlesURLs[$0.source.id], now: now)
    }
    return await Self.sideBySide(loaders) { loader in
      let (id, url) = (loader.definition.source.id, loader.url)
      func check(_ outcome: DoctorHistoryCheck.Outcome, _ latency: Duration?)
        -> DoctorHistoryCheck
      {
        DoctorHistoryCheck(
          source: id, url: url.absoluteString, route: options.proxies.explain(for: url),
          outcome: outcome, latency: latency)
      }
      if let limit = limits?.streamLimit(source: id, url: url) {
        return check(.notAsked(Self.resting(limit)), nil)
      }
      let clock = ContinuousClock()
      let start = clock.now
      do {
        let series = try await loader.load(.day)
        return check(
          .history(
            candles: series.candles.count, period: series.period,
            newest: series.candles[series.candles.count - 1].start), clock.now - start)
      } catch let error as PriceSourceError {
        return check(.failed(error), clock.now - start)
      } catch {
        return check(.failed(.unreachable("\(error)")), clock.now - start)
      }
    }
  }

  private static func resting(_ limit: PriceSourceChain.InheritedLimit) -> String {
    "resting for \(limit.remaining.humanText) after \(limit.cause) (an earlier run)"
  }

  /// The settings in effect, each with the layer it came from; secrets redacted.
  var settings: [DoctorReport.Setting] {
    let (configuration, layers) = (options.configuration, options.layers)
    func setting(_ name: String, _ value: String) -> DoctorReport.Setting {
      .init(name: name, value: value, origin: "\(layers.origin(of: name))")
    }
    var settings = [
      setting("sources", configuration.sources.map(\.source.id).joined(separator: ",")),
      setting("currency", configuration.currency.code),
      setting("interval", options.interval.humanText),
      setting("primary-timeout", configuration.primaryTimeout.humanText),
      trustSetting,
    ]
    for (id, _) in configuration.apiKeys.sorted(by: { $0.key < $1.key }) {
      settings.append(setting("\(id)-api-key", "<redacted>"))
    }
    // Whether they are set, and where from; never how much.
    if let holdings = options.holdings {
      settings.append(setting("holdings", Self.setButNeverShown))
      if holdings.costBasis != nil {
        settings.append(setting("cost-basis", Self.setButNeverShown))
      }
    }
    return settings
  }

  /// What `doctor` says of the holdings and their cost basis: that they are set, nothing more.
  static let setButNeverShown = "set (never shown)"

  /// The trust line: the file or folder as its value, where its name came from as its origin.
  private var trustSetting: DoctorReport.Setting {
    let value: String
    switch options.trust {
    case .system: value = "\(options.trust)"
    case .file(let path, _): value = path
    case .directory(let path, _): value = "the certificates in \(path)"
    }
    return .init(name: "trust", value: value, origin: "\(options.trustOrigin)")
  }

  /// The cache and the state file: where, how old, and whether they can be read.
  func files(now: Date) -> [DoctorReport.File] {
    var files: [DoctorReport.File] = []
    if let store = options.store {
      files.append(
        Self.file("cache", at: store.fileURL, now: now) {
          try store.load().map { "holds \($0.value) \($0.currency) from \($0.source.id)" }
            ?? "missing (no price kept yet)"
        })
    }
    if let candleStore = options.candleStore {
      files.append(
        Self.file("history", at: candleStore.fileURL(for: .day), now: now) {
          try candleStore.load(.day).map {
            "holds \(DoctorHistoryCheck.candles($0.candles.count, of: $0.period))"
              + " from \($0.source.id)"
          } ?? "missing (no price history kept yet)"
        })
    }
    if let limitStore = options.limitStore {
      files.append(
        Self.file("state", at: limitStore.fileURL, now: now) {
          let count = try limitStore.load().count
          return "readable, \(count) limit\(count == 1 ? "" : "s") kept"
        })
    }
    return files
  }

  /// One file's line: its health as `read` finds it, or why it cannot be read.
  private static func file(
    _ name: String, at url: URL, now: Date, read: () throws -> String
  ) -> DoctorReport.File {
    let health: String
    do {
      health = try read()
    } catch {
      health = "unreadable: \(error)"
    }
    return .init(name: name, path: url.path, health: health, ageSeconds: age(of: url, now: now))
  }

  private static func age(of url: URL, now: Date) -> Int? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
      let modified = attributes[.modificationDate] as? Date
    else { return nil }
    return max(0, Int(now.timeIntervalSince(modified)))
  }

  /// `check` of every item at once, the results in the items' order.
  private static func sideBySide<Item: Sendable, Checked: Sendable>(
    _ items: [Item], _ check: @escaping @Sendable (Item) async -> Checked
  ) async -> [Checked] {
    await withTaskGroup(of: (Int, Checked).self) { group in
      for (index, item) in items.enumerated() {
        group.addTask { (index, await check(item)) }
      }
      var checked: [(Int, Checked)] = []
      for await result in group { checked.append(result) }
      return checked.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }
}
