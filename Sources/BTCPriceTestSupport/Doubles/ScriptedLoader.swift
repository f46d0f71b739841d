import BTCPriceCore
import BTCPriceRuntime

/// The test value of ``PriceLoader``: answers each call with the next step of its script (the
/// last step repeats), and records when each call came.
///
/// With a clock, a call's time is recorded as time since the clock's origin, and `answersAfter`
/// makes every answer wait that long on it (a slow source); without one, calls are counted only.
public struct ScriptedLoader: PriceLoader {
  public enum Step: Sendable {
    case answer(PriceQuote)
    case fail(PriceSourceError)
    /// Never answers; returns only when cancelled.
    case hang
  }

  private let script: Locked<[Step]>
  private let clock: SteppedTestClock?
  private let answersAfter: Duration?
  private let calledAt = Locked<[Duration]>([])

  public init(_ steps: Step...) {
    self.init(clock: nil, answersAfter: nil, steps)
  }

  /// A script built by the test, e.g. one step per price of a list.
  public init(steps: [Step]) {
    self.init(clock: nil, answersAfter: nil, steps)
  }

  public init(clock: SteppedTestClock, answersAfter: Duration? = nil, _ steps: Step...) {
    self.init(clock: clock, answersAfter: answersAfter, steps)
  }

  private init(clock: SteppedTestClock?, answersAfter: Duration?, _ steps: [Step]) {
    precondition(!steps.isEmpty, "a script needs a step")
    self.script = Locked(steps)
    self.clock = clock
    self.answersAfter = answersAfter
  }

  /// When each call came, as time since the clock's origin (`.zero` each without a clock).
  public var calls: [Duration] { calledAt.value }

  public func load() async throws -> PriceQuote {
    calledAt.append(clock?.elapsed ?? .zero)
    let step = script.withValue { $0.count > 1 ? $0.removeFirst() : $0[0] }
    if let clock, let answersAfter { try await clock.sleep(for: answersAfter) }
    switch step {
    case .answer(let quote): return quote
    case .fail(let error): throw error
    case .hang:
      let (never, continuation) = AsyncStream.makeStream(of: Never.self)
      for await _ in never {}
      continuation.finish()
      throw CancellationError()
    }
  }
}
