import ArgumentParser
import BTCPriceAlerts
import BTCPriceCommandLine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price serve`: one ticker, any number of viewers, on a web page, a JSON endpoint and an
/// event stream. The composition root of the web front end.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the price to browsers and scripts: a live page, JSON and a stream.",
    discussion: """
      One ticker asks the sources (the same chain, cache and banner as the command line) and \
      shares every tick with all viewers; no viewer ever causes a request to an exchange.

      ROUTES:
        /              the page: price, time, source, banner, sparkline; live
        /api/price     the --json object (Cache-Control: max-age=1, ETag)
        /api/stream    Server-Sent Events, one "price" event per tick
        /metrics       Prometheus text
        /healthz       "ok"

      It listens on 127.0.0.1 (this machine only) unless --host says otherwise, e.g. \
      --host 0.0.0.0 for every interface of a LAN. SIGINT or SIGTERM ends every stream \
      and exits within a second.

      PIPELINE: takes the pipeline options of btc-price (see btc-price --help) before or \
      after "serve": --currency, --sources, --<name>-url, --interval, --primary-timeout, \
      --cache-path, --no-cache, --config, --verbose, their environment variables and the \
      settings file.

      ALERTS: --alert rules (or the settings file's) mark the stream's tick ("alerts"), \
      show a browser notification where the viewer allowed them, and go to --alert-webhook as a \
      JSON POST, or as plain text with --alert-webhook-format text (ntfy); from a \
      bounded queue (64) with jittered back-off retries, never waited for by the tick.

      EXAMPLES:
        btc-price serve                          http://127.0.0.1:8080/
        btc-price serve --host 0.0.0.0 --port 80 --sources coinbase,kraken
        curl -s http://127.0.0.1:8080/api/price | jq -r .price
        curl -N http://127.0.0.1:8080/api/stream
      """)

  @Option(
    help: ArgumentHelp(
      "Address to listen on (0.0.0.0 or :: for every interface).", valueName: "address"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("Port to listen on (0 picks a free one).", valueName: "port"))
  var port = 8080

  @Option(
    name: .customLong("connections-per-address"),
    help: ArgumentHelp(
      "Open connections one client address may have (raise it behind a reverse proxy).",
      valueName: "n"))
  var connectionsPerAddress = 32

  @Option(
    name: .customLong("alert-webhook"),
    help: ArgumentHelp(
      "POST each alert (--alert rules, or the settings file's) to this URL, e.g. an ntfy topic "
        + "(env BTC_PRICE_ALERT_WEBHOOK).",
      valueName: "url"))
  var alertWebhook: String?

  @Option(
    name: .customLong("alert-webhook-format"),
    help: ArgumentHelp(
      "The webhook's body: json (an object per alert) or text (the sentence, as ntfy publishes).",
      valueName: "json|text"))
  var alertWebhookFormat: AlertWebhook.BodyFormat = .json

  /// The pipeline options. ArgumentParser lets a parent command claim its options anywhere on
  /// the line, so the root command parses them (and validates them) even after `serve`; this
  /// group is the root's parsed value, shared with this subcommand.
  @OptionGroup(visibility: .private) var root: BTCPriceCommand

  func validate() throws {
    if root.once || root.count != nil || root.json || root.live || root.waybar
      || root.format != nil || root.maxAge != nil
    {
      throw ValidationError(
        "--once, --count, --json, --live, --waybar, --format and --max-age are for the "
          + "terminal, not serve.")
    }
    if root.pipeline.onAlert != nil || root.pipeline.notify {
      throw ValidationError(
        "--on-alert and --notify are for the terminal; serve sends alerts to --alert-webhook.")
    }
    if root.pipeline.givesHoldings {
      throw ValidationError(
        "--holdings and --cost-basis are for the terminal: serve never shows them.")
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
    guard !host.isEmpty else { throw ValidationError("--host must name an address.") }
    guard connectionsPerAddress >= 1 else {
      throw ValidationError("--connections-per-address must be at least 1.")
    }
  }

  func run() async throws {
    let resolved = try root.pipeline.resolved(
      environment: ProcessEnvironment.current(), format: nil, alertWebhook: alertWebhook)
    let frontEnd = ServeFrontEnd(
      options: resolved, webhookFormat: alertWebhookFormat,
      listener: .init(host: host, port: port, connectionsPerAddress: connectionsPerAddress),
      output: Console.output)
    switch await frontEnd.run() {
    case .stopped: return
    case .interrupted(let signal): throw ExitCode(SignalTrap.status(after: signal))
    case .failed(let reason):
      Console.writeStderr(Console.warning(reason))
      throw ExitCode(1)
    }
  }
}

extension AlertWebhook.BodyFormat: ExpressibleByArgument {}
