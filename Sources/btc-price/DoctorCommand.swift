import ArgumentParser
import BTCPriceCore
import BTCPriceNIO
import BTCPriceNetworking
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price doctor`: asks every source once and says how far each request got, with the
/// settings, files and limits in effect. Composition only: the verdicts, steps and both
/// renderings are ``DoctorCheck`` and ``DoctorReport``'s.
struct DoctorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Ask every source once and say what works, what does not, and why.",
    discussion: """
      For each source: the way it goes (direct or through which proxy), the steps of one \
      request (proxy, dns, connect, tls, http, body, price) with the latency and a verdict, \
      and advice. Then the streams the ticks read (the primary's and the cross-check's), each \
      opened once the way the ticks open it (proxy, connect, tls, upgrade, first message, the \
      time taken, and why it failed). Then the \
      settings in effect and where they came from (secrets redacted), the cache and state \
      files with their age and health, and the limits from earlier runs (a source under a \
      ban or rate limit is not asked). --json prints one object.

      Exit status 0 when at least one source gave a valid price, else 1.
      """)

  @OptionGroup(visibility: .private) var root: BTCPriceCommand

  func validate() throws {
    if root.once || root.count != nil || root.live || root.waybar || root.format != nil
      || root.maxAge != nil
    {
      throw ValidationError(
        "--once, --count, --live, --waybar, --format and --max-age are for the terminal, "
          + "not doctor.")
    }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let resolved = try root.pipeline.resolved(environment: environment, format: nil)
    let now: @Sendable () -> Date = { Date() }
    let client = NIOHTTPClient(
      transportTimeout: .seconds(10), proxies: resolved.proxies, trust: resolved.trust)
    let sourceLimits = resolved.limitStore.map {
      SourceLimits(store: $0, targets: resolved.configuration.limitTargets, now: now)
    }
    let limits = sourceLimits?.restore() ?? [:]
    // Side by side: behind a firewall that drops packets every source waits out its 10 s, and
    // one after the other that was most of a minute before doctor said anything.
    async let streams = streamChecks(resolved, limits: sourceLimits)
    let checks = await Self.sideBySide(resolved.configuration.sources) { definition in
      await sourceCheck(definition, resolved, client: client, limits: limits, now: now)
    }
    await client.shutdown()
    let report = DoctorReport(
      checks: checks, streams: await streams,
      settings: settings(resolved, environment: environment),
      files: files(resolved, now: now()), limits: limitLines(limits))
    do throws(TerminalOutputError) {
      try Console.writeStdout(root.json ? report.json : report.text)
    } catch {
      // A reader that left (`| head`) wanted no more; any other write error is said.
      if case .failed(let reason) = error {
        Console.error("cannot write the report: \(reason)")
        throw ExitCode(1)
      }
    }
    throw ExitCode(report.exitStatus)
  }

  /// Asks `definition` once, unless an earlier run's limit rests it.
  private func sourceCheck(
    _ definition: PriceSourceDefinition, _ resolved: PipelineOptions.Resolved,
    client: NIOHTTPClient, limits: [String: PriceSourceChain.InheritedLimit],
    now: @escaping @Sendable () -> Date
  ) async -> DoctorCheck {
    let id = definition.source.id
    let url = (try? resolved.configuration.marketURLs[id]?.get()) ?? definition.defaultURL
    let route = resolved.proxies.explain(for: url)
    if let limit = limits[id] {
      return DoctorCheck(
        source: id, url: url.absoluteString, route: route,
        outcome: .notAsked(
          "resting for \(limit.remaining.humanText) after \(limit.cause) (an earlier run)"),
        latency: nil)
    }
    let clock = ContinuousClock()
    let start = clock.now
    let outcome: DoctorCheck.Outcome
    do {
      let loader = RemotePriceLoader(
        client: client, definition: definition, currency: resolved.configuration.currency,
        url: url, apiKey: resolved.configuration.apiKeys[id], now: now)
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

  /// Opens each stream the ticks read (``PriceStreamSet/endpoints(sources:currency:urls:maximumStreams:)``:
  /// the primary's and the cross-check's, and the standby's when one of them rests after an
  /// earlier run's refusal, as the ticks would) once, side by side, unless streams are off or it
  /// refused us earlier; in the ticks' order.
  private func streamChecks(
    _ resolved: PipelineOptions.Resolved, limits: SourceLimits?
  ) async -> [DoctorStreamCheck] {
    let configuration = resolved.configuration
    var endpoints = PriceStreamSet.endpoints(
      sources: configuration.sources, currency: configuration.currency,
      urls: configuration.streamURLs, maximumStreams: PriceStreamSet.keptStreams + 1)
    let kept = endpoints.prefix(PriceStreamSet.keptStreams)
    if endpoints.count > kept.count,
      !kept.contains(where: { limits?.streamLimit(source: $0.source.id, url: $0.url) != nil })
    {
      endpoints.removeLast()
    }
    return await Self.sideBySide(endpoints) { endpoint in
      await streamCheck(endpoint, resolved, limits: limits)
    }
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

  private func streamCheck(
    _ endpoint: PriceStreamEndpoint, _ resolved: PipelineOptions.Resolved, limits: SourceLimits?
  ) async -> DoctorStreamCheck {
    let route = resolved.proxies.explain(for: endpoint.url)
    func notAsked(_ reason: String) -> DoctorStreamCheck {
      DoctorStreamCheck(
        source: endpoint.source.id, url: endpoint.url.absoluteString, route: route,
        outcome: .notAsked(reason), latency: nil)
    }
    guard resolved.stream else { return notAsked("streams are off (no-stream)") }
    if let limit = limits?.streamLimit(source: endpoint.source.id, url: endpoint.url) {
      return notAsked(
        "resting for \(limit.remaining.humanText) after \(limit.cause) (an earlier run)")
    }
    return await StreamProbe(proxies: resolved.proxies, trust: resolved.trust).check(endpoint)
  }

  private func settings(_ resolved: PipelineOptions.Resolved, environment: [String: String])
    -> [DoctorReport.Setting]
  {
    func origin(_ option: String?, _ variable: String? = nil) -> String {
      if option != nil { return "command line" }
      if let variable, environment[variable]?.isEmpty == false { return "$\(variable)" }
      return "settings file or default"
    }
    let options = root.pipeline
    var settings: [DoctorReport.Setting] = [
      .init(
        name: "sources",
        value: resolved.configuration.sources.map(\.source.id).joined(separator: ","),
        origin: origin(options.sources, "BTC_PRICE_SOURCES")),
      .init(
        name: "currency", value: resolved.configuration.currency.code,
        origin: origin(options.currency, "BTC_PRICE_CURRENCY")),
      .init(
        name: "interval", value: resolved.interval.humanText, origin: origin(options.interval)),
      .init(
        name: "primary-timeout", value: resolved.configuration.primaryTimeout.humanText,
        origin: origin(options.primaryTimeout)),
      trustSetting(resolved.trust, caFileOption: options.caFile),
    ]
    for (id, _) in resolved.configuration.apiKeys.sorted(by: { $0.key < $1.key }) {
      settings.append(.init(name: "\(id)-api-key", value: "<redacted>", origin: "given"))
    }
    return settings
  }

  /// The trust line: the file or folder as its value, where its name came from as its origin
  /// (it used to print the origin twice: "… (from $SSL_CERT_FILE) (see value)").
  private func trustSetting(_ trust: TrustSource, caFileOption: String?) -> DoctorReport.Setting {
    switch trust {
    case .system:
      return .init(name: "trust", value: "\(trust)", origin: "default")
    case .file(let path, let origin):
      return .init(name: "trust", value: path, origin: Self.origin(of: origin, caFileOption))
    case .directory(let path, let origin):
      return .init(
        name: "trust", value: "the certificates in \(path)",
        origin: Self.origin(of: origin, caFileOption))
    }
  }

  /// `$SSL_CERT_FILE`, `command line` or `settings file`, as the other settings say it.
  private static func origin(of trustOrigin: String, _ caFileOption: String?) -> String {
    if caFileOption != nil { return "command line" }
    return trustOrigin == "the ca-file setting" ? "settings file" : trustOrigin
  }

  private func files(_ resolved: PipelineOptions.Resolved, now: Date) -> [DoctorReport.File] {
    var files: [DoctorReport.File] = []
    if let store = resolved.store {
      let health: String
      do {
        health =
          try store.load().map { "holds \($0.value) \($0.currency) from \($0.source.id)" }
          ?? "missing (no price kept yet)"
      } catch {
        health = "unreadable: \(error)"
      }
      files.append(
        .init(
          name: "cache", path: store.fileURL.path, health: health,
          ageSeconds: Self.age(of: store.fileURL, now: now)))
    }
    if let limitStore = resolved.limitStore {
      let health: String
      do {
        let count = try limitStore.load().count
        health = "readable, \(count) limit\(count == 1 ? "" : "s") kept"
      } catch {
        health = "unreadable: \(error)"
      }
      files.append(
        .init(
          name: "state", path: limitStore.fileURL.path, health: health,
          ageSeconds: Self.age(of: limitStore.fileURL, now: now)))
    }
    return files
  }

  private static func age(of url: URL, now: Date) -> Int? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
      let modified = attributes[.modificationDate] as? Date
    else { return nil }
    return max(0, Int(now.timeIntervalSince(modified)))
  }

  private func limitLines(_ limits: [String: PriceSourceChain.InheritedLimit]) -> [String] {
    limits.sorted(by: { $0.key < $1.key }).map { id, limit in
      "\(id): not asked for \(limit.remaining.humanText) (\(limit.cause))"
    }
  }
}
