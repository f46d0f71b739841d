extension BinaryProcess {
  /// Runs a one-shot (`--once`, or any run of one tick) to its end, and once more when that tick
  /// ran out of time: the first answer to a process just started can take over a second in a
  /// full run on two loaded cores, and a tick that gets no price within its second has failed
  /// (DEVELOPERS.md, "A first tick can miss its second in a full run";
  /// `BTC_PRICE_TEST_FIRST_ANSWER_DELAY_MS` finds the tests that need this). Only a run that
  /// failed (status 1) and said a source ran out of time goes again: it showed no new price, so
  /// it wrote no cache and moved no alert rule, and the next run starts where it did. Any other
  /// outcome is the test's to judge.
  ///
  /// - Parameters:
  ///   - evenWithAPrice: run again also when a later source gave the price after one ran out of
  ///     time, for a test whose point is what the first source answered. Such a run saved its
  ///     price: `start` puts back the cache the test needs.
  ///   - start: starts the same run again each time it is called.
  /// - Returns: the run that counts, ended, its exit status, and how many runs it took (1 or 2:
  ///   each asked the sources, which a test counting requests allows for).
  public static func oneShot(
    evenWithAPrice: Bool = false, _ start: () throws -> BinaryProcess
  ) async throws -> (run: BinaryProcess, status: Int32, runs: Int) {
    let first = try start()
    let status = await first.waitForExit()
    guard status == 1 || evenWithAPrice, first.ranOutOfTime else { return (first, status, 1) }
    let again = try start()
    return (again, await again.waitForExit(), 2)
  }

  /// The run said that a source ran out of time (`timed out after …` in a `--json` line's error
  /// or in `--verbose`'s lines) or that none answered in time (the outage's warning). A test whose
  /// point is a source that never answers runs twice, and judges the second run as the first.
  public var ranOutOfTime: Bool {
    stderrText.contains("no source answered in time") || stderrText.contains("timed out after")
      || stdoutText.contains { $0.contains("timed out after") }
  }
}
