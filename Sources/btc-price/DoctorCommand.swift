import ArgumentParser
import BTCPriceCommandLine
import BTCPriceNIO
import BTCPricePublish
import BTCPriceServer
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price doctor`: asks every source once and says how far each request got, with the
/// settings, files and limits in effect. Composition only: what is asked and found is
/// ``Doctor``'s, the verdicts, steps and both renderings ``DoctorCheck`` and ``DoctorReport``'s.
struct DoctorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Ask every source once and say what works, what does not, and why.",
    discussion: """
      For each source: the way it goes (direct or through which proxy), the steps of one \
      request (proxy, dns, connect, tls, http, body, price) with the latency and a verdict, \
      and advice. Then the streams the ticks read (the primary's and the cross-check's), each \
      opened once the way the ticks open it (proxy, connect, tls, upgrade, first message, the \
      time taken, and why it failed). Then the day's candles of each exchange with them (the \
      chart's and the 24-hour change's), asked once. Then the \
      settings in effect and where they came from (secrets redacted), the cache, history and \
      state files with their age and health, and the limits from earlier runs (a source under a \
      ban or rate limit is not asked). With BTC_PRICE_PUBLISH_URLS set, each edge that \
      btc-price publish would publish to, asked once (credentials redacted). --json prints one \
      object.

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
    let resolved = try root.pipeline.resolved(
      environment: ProcessEnvironment.current(), format: nil)
    let client = NIOHTTPClient(
      transportTimeout: .seconds(10), proxies: resolved.proxies, trust: resolved.trust)
    let report = await Doctor(
      options: resolved, client: client,
      probe: .nio(proxies: resolved.proxies, trust: resolved.trust),
      edges: PublishTarget.urls(arguments: [], environment: ProcessEnvironment.current())
        .compactMap { try? PublishTarget($0) }
    ).report()
    await client.shutdown()
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
}
