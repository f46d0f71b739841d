import BTCPriceCore
import BTCPriceFeature

/// What `btc-price doctor` learnt from asking one source once: the way it went, how far the
/// request got (proxy, DNS, connect, TLS, HTTP status, body, price), how long it took, a verdict
/// and advice.
public struct DoctorCheck: Equatable, Sendable {
  public enum Outcome: Equatable, Sendable {
    case price(PriceQuote)
    case failed(PriceSourceError)
    /// Not asked, and why (a limit or ban from an earlier run: doctor never asks a banned source).
    case notAsked(String)
  }

  /// The steps of one request, in order.
  public enum Step: String, CaseIterable, Sendable {
    case proxy, dns, connect, tls, http, body, price
  }

  /// How one step went: passed, failed, not reached, or not part of this request.
  public enum StepState: String, Equatable, Sendable {
    case ok, failed
    case notReached = "-"
    case notApplicable = "n/a"
  }

  public let source: String
  public let url: String
  /// `direct`, or `through http://***@proxy:3128 (from $https_proxy)`.
  public let route: String
  public let outcome: Outcome
  public let latency: Duration?

  public init(source: String, url: String, route: String, outcome: Outcome, latency: Duration?) {
    self.source = source
    self.url = url
    self.route = route
    self.outcome = outcome
    self.latency = latency
  }

  /// The step the request failed at, from the kind of failure.
  public var failedStep: Step? {
    guard case .failed(let error) = outcome else { return nil }
    let text = "\(error)"
    switch error {
    case .unreachable where text.contains("proxy"): return .proxy
    case .unreachable where text.contains("host not found"): return .dns
    case .unreachable where text.contains("TLS failure"): return .tls
    case .unreachable: return .connect
    case .timedOut: return .connect
    case .httpStatus, .rateLimited, .refused: return .http
    case .invalidData: return .body
    case .skipped: return nil
    }
  }

  /// Each step's state, in order.
  public var steps: [(step: Step, state: StepState)] {
    let direct = route.hasPrefix("direct")
    let secure = url.lowercased().hasPrefix("https:")
    let reached: Int?
    switch outcome {
    case .price: reached = Step.allCases.count
    case .failed: reached = failedStep.flatMap { Step.allCases.firstIndex(of: $0) }
    case .notAsked: reached = nil
    }
    // Through a proxy that resolves names itself, DNS here is the proxy's own lookup.
    return Self.states(of: Step.allCases, reached: reached) {
      ($0 == .proxy && direct) || ($0 == .tls && !secure)
    }
  }

  /// The state of each of `steps` when a check got as far as the step at index `reached` (all
  /// of them: `steps.count`; nil: never asked): done before it, failed at it, not reached after
  /// it, and not applicable where `skipped` says so (no proxy, no TLS). Shared by every check
  /// that `doctor` reports step by step.
  static func states<S: Equatable>(
    of steps: [S], reached: Int?, skipped: (S) -> Bool
  ) -> [(step: S, state: StepState)] {
    steps.enumerated().map { index, step in
      if skipped(step) { return (step, .notApplicable) }
      guard let reached else { return (step, .notReached) }
      if index < reached { return (step, .ok) }
      if index == reached { return (step, .failed) }
      return (step, .notReached)
    }
  }

  /// One line: `price 68901.23 USD`, `failed at tls: …`, `not asked: …`.
  public var verdict: String {
    switch outcome {
    case .price(let quote): return "price \(quote.value) \(quote.currency)"
    case .failed(let error): return "failed at \(failedStep?.rawValue ?? "request"): \(error)"
    case .notAsked(let reason): return "not asked: \(reason)"
    }
  }

  /// What to do, for a failure whose cause a user can act on.
  public var advice: String? {
    guard case .failed(let error) = outcome else { return nil }
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: PriceSource(id: source, displayName: source), error: error)
      ]))
    return reason.hasPrefix("every source failed (") ? nil : reason
  }

  public var gavePrice: Bool {
    if case .price = outcome { return true }
    return false
  }
}
