import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Logging
import Testing

@testable import BTCPriceCommandLine

/// `serve`'s server logs (Hummingbird's, swift-service-lifecycle's) are queued on stderr's
/// writer: Hummingbird logs on its event loops, which must never wait for stderr's reader.
@Suite("Queue the server's logs", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct QueueTheServersLogsUseCaseTests {
  @Test func aLogLine_isQueuedAndTheLoggerGoesOnWhileNobodyReadsStderr() {
    let stall = Stall()
    let written = Locked<[String]>([])
    let stderr = TerminalWriter { chunk in
      stall.pass()
      written.append(chunk.text)
      return nil
    }
    let logger = ServeFrontEnd.logger(
      verbose: false, output: CommandLineOutput(stdout: stderr, stderr: stderr))

    logger.warning("first")
    #expect(stall.hasStalled(), "the line went to the writer's thread")
    logger.warning("second", metadata: ["b": "2", "a": "1"])
    logger.info("below a warning, without --verbose")
    stall.release()
    #expect(stderr.waitUntilWritten(atMost: .seconds(5)))

    #expect(written.value.count == 2)
    // swift-log's StreamLogHandler's shape: local time, level, label, metadata, source, message.
    let line = written.value.last ?? ""
    let shape =
      #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} warning btc-price: a=1 b=2 \[(?<source>\w+)\] second\n/#
    #expect(line.wholeMatch(of: shape)?.source == "BTCPriceCommandLineTests", "\(line)")
  }

  @Test func withVerbose_everythingFromDebugOnIsLogged() {
    let written = Locked<[String]>([])
    let stderr = TerminalWriter { chunk in
      written.append(chunk.text)
      return nil
    }
    let logger = ServeFrontEnd.logger(
      verbose: true, output: CommandLineOutput(stdout: stderr, stderr: stderr))

    logger.trace("not even with --verbose")
    logger.debug("Starting service")
    #expect(stderr.waitUntilWritten(atMost: .seconds(5)))

    #expect(written.value.count == 1)
    #expect(written.value.first?.contains(" debug btc-price: [") == true)
  }
}
