import BTCPriceCommandLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's entry: Swift's tasks are put on SwiftNIO's event loops before the first one
/// starts (``ConcurrencyPool``), then the command line is read and run. A plain command line
/// (`--once --json`, what status bars run every few seconds) is read without ArgumentParser,
/// whose reflective parse is most of a one-shot's start-up (``RootArguments/read(_:)``);
/// anything else, and anything refused, goes through ArgumentParser.
@main
enum Entry {
  static func main() async {
    // Read before the first task: the price lines need one shared loop, the rest the default.
    let arguments = RootArguments.read(Array(CommandLine.arguments.dropFirst()))
    ConcurrencyPool.useTheEventLoops(threads: arguments == nil ? nil : 1)
    await run(arguments)
  }

  /// Runs the command and ends the process from where it ran, as every failure's exit already
  /// does: returning to `main` would hop back to the main actor, whose executor on Linux is
  /// libdispatch's main queue, and that one hop starts libdispatch's pool for the process's last
  /// millisecond (docs/PERFORMANCE.md, "The one-shot").
  private static func run(_ arguments: RootArguments?) async -> Never {
    if let arguments, await BTCPriceCommand.main(arguments) { exit(0) }
    await BTCPriceCommand.main()
    exit(0)
  }
}
