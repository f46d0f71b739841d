import ArgumentParser
import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceSettings
import BTCPriceSources
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct BTCPriceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "btc-price",
    abstract: "Print the Bitcoin price, in US dollars or your currency, once a second.",
    discussion: RootHelp.discussion,
    version: BTCPriceVersion.display,
    subcommands: [ServeCommand.self, PublishCommand.self, DoctorCommand.self, ChartCommand.self]
  )

  @OptionGroup var pipeline: PipelineOptions

  @Option(
    help: ArgumentHelp(
      "Stop after this many ticks (default: run until interrupted).", valueName: "n"))
  var count: Int?

  @Flag(help: "Run one tick and exit (same as --count 1).")
  var once = false

  @Flag(help: "Print one JSON object per tick instead of text.")
  var json = false

  @Flag(
    help: ArgumentHelp(
      "Show a live panel redrawn in place: price, changes, sparkline.",
      discussion: "Needs a terminal; falls back to plain lines otherwise."))
  var live = false

  @Flag(
    help: ArgumentHelp(
      "Print one Waybar custom-module JSON object per tick (text, tooltip, class, alt).",
      discussion: "Its text follows --format when given."))
  var waybar = false

  // A setting's option, declared here to sit with the output modes it shapes.
  @Option(help: ArgumentHelp(setting: "format"))
  var format: String?

  @Option(
    name: .customLong("max-age"),
    help: ArgumentHelp(
      "With --once: print the cached price without asking any source when it is younger than "
        + "this.",
      discussion: "For status bars that run the command every few seconds.",
      valueName: "seconds"))
  var maxAge: Double?

  func validate() throws {
    if let problem = arguments.commandProblem { throw ValidationError(problem) }
  }

  /// What was given, as plain values: what ``RootArguments/read(_:)`` reads from a plain
  /// command line without ArgumentParser.
  var arguments: RootArguments {
    var arguments = RootArguments()
    arguments.settings = pipeline.settings
    arguments.config = pipeline.config
    arguments.noCache = pipeline.noCache
    arguments.notify = pipeline.notify
    arguments.verbose = pipeline.verbose
    arguments.count = count
    arguments.once = once
    arguments.json = json
    arguments.live = live
    arguments.waybar = waybar
    arguments.format = format
    arguments.maxAge = maxAge
    return arguments
  }

  func run() async throws {
    let environment = ProcessEnvironment.current()
    try await Self.run(arguments, resolved: Self.resolved(arguments, environment), environment)
  }

  /// Runs a plain command line that ``RootArguments/read(_:)`` read, without ArgumentParser;
  /// false, having done nothing, when its settings are refused: ArgumentParser then reads it
  /// again and says why with its usage text, as for any refusal.
  static func main(_ arguments: RootArguments) async -> Bool {
    let environment = ProcessEnvironment.current()
    guard let resolved = try? resolved(arguments, environment) else { return false }
    do {
      try await run(arguments, resolved: resolved, environment)
    } catch {
      exit(withError: error)
    }
    return true
  }

  private static func resolved(_ arguments: RootArguments, _ environment: [String: String])
    throws -> ResolvedOptions
  {
    try PipelineOptions.resolve(
      settings: arguments.settings, format: arguments.format, config: arguments.config,
      noCache: arguments.noCache, notify: arguments.notify, verbose: arguments.verbose,
      environment: environment)
  }

  private static func run(
    _ arguments: RootArguments, resolved: ResolvedOptions, _ environment: [String: String]
  ) async throws {
    let (json, live) = (arguments.json, arguments.live)
    let (mode, note) = TerminalSession.mode(
      json: json, live: live, waybar: arguments.waybar,
      template: json || live ? nil : resolved.format,
      isTerminal: Console.stdoutIsTerminal, environment: environment)
    if let note { Console.note(note) }
    let frontEnd = TerminalFrontEnd(
      options: resolved, count: arguments.once ? 1 : arguments.count, mode: mode,
      maxAge: arguments.maxAge.map { .milliseconds(Int64($0 * 1000)) }, output: Console.output,
      environment: environment, processEndsWithTheRun: true)
    switch await frontEnd.run() {
    case .lastTickSucceeded: return
    case .lastTickFailed: throw ExitCode(1)
    case .interrupted(let signal): throw ExitCode(SignalTrap.status(after: signal))
    case .readerGone: Self.endAsABrokenPipeDoes()
    case .outputFailed(let reason):
      Console.error("cannot write to stdout: \(reason)")
      throw ExitCode(Self.outputErrorStatus)
    }
  }

  /// EX_IOERR (sysexits.h): stdout could not be written.
  static let outputErrorStatus: Int32 = 74

  /// Ends quietly the way `yes | head` does: killed by SIGPIPE, which the shell reports as 141.
  /// (SwiftNIO ignores SIGPIPE for its sockets, which is why the write saw EPIPE instead.)
  static func endAsABrokenPipeDoes() -> Never {
    signal(SIGPIPE, SIG_DFL)
    kill(getpid(), SIGPIPE)
    _exit(128 + SIGPIPE)
  }
}
