import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceCommandLine

/// The commands read their settings, proxies and paths from the process's environment, read by
/// bytes: each entry split at its first `=`, the first of a name set twice kept.
@Suite("Read the process's environment", .hangLimit(.seconds(30)))
struct ReadTheEnvironmentUseCaseTests {
  @Test func eachEntry_isSplitAtItsFirstEquals_andAnEntryWithoutANameIsLeftOut() {
    let variables = ProcessEnvironment.read([
      "HTTPS_PROXY=http://proxy:3128", "QUERY=a=b&c=d", "EMPTY=", "NO_EQUALS", "=nameless",
      "CAFÉ=crème",
    ])

    #expect(
      variables == [
        "HTTPS_PROXY": "http://proxy:3128", "QUERY": "a=b&c=d", "EMPTY": "", "CAFÉ": "crème",
      ])
  }

  @Test func aNameSetTwice_keepsItsFirstValue_asGetenvDoes() {
    #expect(
      ProcessEnvironment.read(["SOURCES=kraken", "SOURCES=binance"]) == ["SOURCES": "kraken"])
  }

  /// The process's own environment reads as Foundation's `ProcessInfo` reads it, which the
  /// commands used before (the test's process is left as it is: `setenv` beside the suites
  /// running in parallel would race their reads).
  @Test func theProcesssEnvironment_readsAsProcessInfoReadsIt() {
    let variables = ProcessEnvironment.current()

    #expect(variables["PATH"] != nil)
    #expect(variables == ProcessInfo.processInfo.environment)
  }
}
