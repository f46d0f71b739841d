import BTCPriceServer
import BTCPriceTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `serve` decides about its process: how many viewers the open-file limit allows, and how
/// long it takes to end.
@Suite("Serve within the process's limits", .hangLimit(.seconds(30)))
struct ServeWithinItsLimitsTests {
  @Test(arguments: [
    (1_024, 960), (65, 1), (64, 1), (1, 1), (1_048_576, 1_048_512),
  ])
  func maximumConnections_keepsDescriptorsBackForTheRestOfTheProcess(openFiles: Int, max: Int) {
    #expect(OpenFileLimit.maximumConnections(forOpenFiles: openFiles) == max)
  }

  /// macOS: the hard limit is `RLIM_INFINITY` (2^63 - 1 in Darwin's `sys/resource.h`) and the
  /// kernel's `kern.maxfilesperproc` the real cap; Linux: the hard limit, up to the ceiling.
  @Test(arguments: [
    (UInt64(Int64.max), UInt64?(24_576), UInt64(24_576)),
    (UInt64(Int64.max), nil, UInt64(1 << 20)),
    (UInt64.max, nil, UInt64(1 << 20)),
    (524_288, nil, 524_288),
    (1_000, 24_576, 1_000),
    (24_577, 24_576, 24_576),
  ])
  func softLimit_isTheHardOne_withinTheCeilingAndWhatTheSystemLetsAProcessOpen(
    hard: UInt64, perProcess: UInt64?, wanted: UInt64
  ) {
    #expect(OpenFileLimit.softLimit(hard: hard, perProcess: perProcess) == wanted)
  }

  @Test func raise_neverAsksForMoreThanTheCeiling_andReturnsAUsableLimit() {
    let limit = OpenFileLimit.raise()

    #expect(limit >= 1 && limit <= OpenFileLimit.ceiling)
    #expect(OpenFileLimit.raise() == limit)
  }

  @Test func raise_takesTheSoftLimitUpToTheHardOne_andSaysWhatItIsNow() throws {
    // One below the hard limit (a shell's `ulimit -n` lower than allowed); one, so that the
    // other tests of this process lose nothing meanwhile.
    let before = try #require(openFileLimits())
    if before.hard > 1, before.hard <= 1_048_576 { setSoftLimit(before.hard - 1) }

    let limit = OpenFileLimit.raise()

    let now = try #require(openFileLimits())
    #expect(limit == now.soft, "the limit said is not the one in force")
    // Where the hard limit is under the ceiling (always on Linux, whose kernel caps it at 2^20),
    // the soft one reaches it; macOS's unlimited hard limit is asked for up to the ceiling only,
    // and the kernel may keep its own lower cap, so there only the limit said is checked.
    if now.hard <= 1_048_576 { #expect(now.soft == now.hard, "the soft limit was not raised") }
  }

  private func openFileLimits() -> (soft: Int, hard: Int)? {
    var limit = rlimit()
    guard getrlimit(Self.resource, &limit) == 0 else { return nil }
    return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
  }

  private func setSoftLimit(_ soft: Int) {
    var limit = rlimit()
    guard getrlimit(Self.resource, &limit) == 0 else { return }
    limit.rlim_cur = rlim_t(soft)
    _ = setrlimit(Self.resource, &limit)
  }

  #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    private static let resource = RLIMIT_NOFILE
  #endif

  @Test func shutdown_endsWithinASecond_orderlyBeforeTheHardExit() {
    // Both orderly phases end before the hard exit, and the hard exit within the second.
    #expect(
      ServeShutdown.gracefulShutdown + ServeShutdown.cancellation < ServeShutdown.signalGrace)
    #expect(ServeShutdown.signalGrace < .seconds(1))
    #expect(ServeShutdown.gracefulShutdown + ServeShutdown.cancellation == .milliseconds(800))
    #expect(ServeShutdown.signalGrace == .milliseconds(900))
  }
}
