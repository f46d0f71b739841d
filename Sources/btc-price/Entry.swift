import BTCPriceCommandLine

/// The process's entry: Swift's tasks are put on SwiftNIO's event loops before the first one
/// starts (``ConcurrencyPool``), then the command line is parsed and run.
@main
enum Entry {
  static func main() async {
    ConcurrencyPool.useTheEventLoops()
    await BTCPriceCommand.main()
  }
}
