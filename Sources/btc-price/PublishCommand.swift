import ArgumentParser
import BTCPriceCommandLine
import BTCPricePublish
import BTCPriceServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price publish URL...`: the ticker alone, each tick handed to nginx + nchan edges
/// (deploy/, docs/DEPLOY.md). Composition only: every decision is `EdgePublisher`'s.
struct PublishCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "publish",
    abstract: "Publish each tick to nginx + nchan edges, which serve it to any number of viewers.",
    discussion: """
      The same ticker as the command line and serve (streams first, the REST chain, the cache), \
      with no server of its own: each tick's page, --json line and stream event go to the \
      first URL that takes them (URL/page, URL/price, URL/stream), the next one when it fails. \
      The edges (deploy/edge) serve /, /api/price and /api/stream as serve does.

      A URL may carry credentials (https://user:password@edge/pub); they are never printed. A \
      4xx is a configuration error, said once and asked again a minute later; a 5xx or no \
      answer within half the interval moves the tick to the next URL, and the failed one rests \
      (1 s doubling to 10 s).

      --standby: publish only while nobody else does. Before each tick it looks at the stream \
      channel's newest message; unchanged for two intervals, it takes over, and it stands down \
      as soon as another publisher's message is newer than its own (docs/DEPLOY.md).

      EXAMPLES:
        btc-price publish http://127.0.0.1:8081/pub http://127.0.0.1:8082/pub
        btc-price publish --standby https://publisher:secret@edge1.example/pub
      """)

  @Argument(
    help: ArgumentHelp(
      "The edges' publisher locations, in order (or env BTC_PRICE_PUBLISH_URLS, which ps does "
        + "not show).", valueName: "url"))
  var arguments: [String] = []

  private var urls: [String] {
    PublishTarget.urls(arguments: arguments, environment: ProcessEnvironment.current())
  }

  @Flag(help: "Publish only while no other publisher does.")
  var standby = false

  @OptionGroup(visibility: .private) var root: BTCPriceCommand

  func validate() throws {
    if root.once || root.count != nil || root.json || root.live || root.waybar
      || root.format != nil || root.maxAge != nil || root.pipeline.onAlert != nil
      || root.pipeline.notify
    {
      throw ValidationError("publish takes the pipeline options only (see btc-price --help).")
    }
    if root.pipeline.givesHoldings {
      throw ValidationError(
        "--holdings and --cost-basis are for the terminal: publish never sends them.")
    }
    guard !urls.isEmpty else { throw ValidationError("publish needs at least one URL.") }
    for (index, url) in urls.enumerated() {
      do throws(PublishTargetError) {
        _ = try PublishTarget(url)
      } catch {
        throw ValidationError("URL \(index + 1): \(error)")
      }
    }
  }

  func run() async throws {
    let frontEnd = PublishFrontEnd(
      options: try root.pipeline.resolved(
        environment: ProcessEnvironment.current(), format: nil),
      targets: try urls.map { try PublishTarget($0) }, standby: standby, output: Console.output)
    if case .interrupted(let signal) = await frontEnd.run() {
      throw ExitCode(SignalTrap.status(after: signal))
    }
  }
}
