extension BinaryProcess {
  /// Runs a one-shot (`--once`, or any run of one tick) to its end, and once more when that tick
  /// ran out of time: the first answer to a process just started can take over a second in a
  /// full run on two loaded cores, and a tick that gets no price within its second has failed
  /// (DEVELOPERS.md, "A first tick can miss its second in a full run";
  /// `BTC_PRICE_TEST_FIRST_ANSWER_DELAY_MS` finds the tests that need this). Only a run that said
  /// no source answered in time goes again: it showed no price, so it wrote no cache and moved no
  /// alert rule, and the next run starts where it did. Any other outcome is the test's to judge.
  ///
  /// - Parameter start: starts the same run again each time it is called.
  /// - Returns: the run that counts, ended, its exit status, and how many runs it took (1 or 2:
  ///   each asked the sources, which a test counting requests allows for).
  public static func oneShot(_ start: () throws -> BinaryProcess) async throws -> (
    run: BinaryProcess, status: Int32, runs: Int
  ) {
    let first = try start()
    let status = await first.waitForExit()
    guard status == 1, first.ranOutOfTime else { return (first, status, 1) }
    let again = try start()
    return (again, await again.waitForExit(), 2)
  }

  /// The run said (on stderr) that its sources gave no price because none answered in time.
  public var ranOutOfTime: Bool {
    stderrText.contains("no source answered in time")
  }
}
