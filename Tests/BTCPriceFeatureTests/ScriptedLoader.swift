import BTCPriceCore
import BTCPriceTestSupport

/// A loader that answers each call with the next step of its script (the last step repeats).
struct ScriptedLoader: PriceLoader {
  enum Step: Sendable {
    case answer(PriceQuote)
    case fail(PriceSourceError)
    /// Never answers; returns only when cancelled.
    case hang
  }

  private let script: Locked<[Step]>
  let calls = Locked(0)

  init(_ steps: Step...) {
    script = Locked(steps)
  }

  func load() async throws -> PriceQuote {
    calls.withValue { $0 += 1 }
    let step = script.withValue { $0.count > 1 ? $0.removeFirst() : $0[0] }
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
