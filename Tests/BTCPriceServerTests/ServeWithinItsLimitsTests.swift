import BTCPriceServer
import Testing

/// What `serve` decides about its process: how many viewers the open-file limit allows, and how
/// long it takes to end.
@Suite("Serve within the process's limits")
struct ServeWithinItsLimitsTests {
  @Test(arguments: [
    (1_024, 960), (65, 1), (64, 1), (1, 1), (1_048_576, 1_048_512),
  ])
  func maximumConnections_keepsDescriptorsBackForTheRestOfTheProcess(openFiles: Int, max: Int) {
    #expect(OpenFileLimit.maximumConnections(forOpenFiles: openFiles) == max)
  }

  @Test func raise_neverAsksForMoreThanTheCeiling_andReturnsAUsableLimit() {
    let limit = OpenFileLimit.raise()

    #expect(limit >= 1 && limit <= OpenFileLimit.ceiling)
    #expect(OpenFileLimit.raise() == limit)
  }

  @Test func shutdown_endsWithinASecond_orderlyBeforeTheHardExit() {
    #expect(ServeShutdown.orderlyShutdownFitsTheGrace)
    #expect(ServeShutdown.gracefulShutdown + ServeShutdown.cancellation == .milliseconds(800))
    #expect(ServeShutdown.signalGrace == .milliseconds(900))
  }
}
