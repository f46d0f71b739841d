import BTCPriceCommandLine

/// The process's entry: Swift's tasks are put on SwiftNIO's event loops before the first one
/// starts (``ConcurrencyPool``), then the command line is read and run. A plain command line
/// (`--once --json`, what status bars run every few seconds) is read without ArgumentParser,
/// whose reflective parse is most of a one-shot's start-up (``RootArguments/read(_:)``);
/// anything else, and anything refused, goes through ArgumentParser.
@main
enum Entry {
  static func main() async {
    ConcurrencyPool.useTheEventLoops()
    if let arguments = RootArguments.read(CommandLine.arguments.dropFirst()),
      await BTCPriceCommand.main(arguments)
    {
      return
    }
    await BTCPriceCommand.main()
  }
}
