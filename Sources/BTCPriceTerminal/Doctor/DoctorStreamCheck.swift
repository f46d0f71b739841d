import BTCPriceCore

/// What `btc-price doctor` learnt from opening the primary's price stream once, the way the
/// ticks would open it (through the same proxy): how far it got (proxy, connect, TLS, upgrade,
/// first message), how long that took, a verdict and, when it failed, why in words.
public struct DoctorStreamCheck: Equatable, Sendable {
  public enum Outcome: Equatable, Sendable {
    /// The first message arrived: a trade, or a heartbeat or acknowledgement.
    case message(PriceStreamMessage)
    /// The stream ended first; `upgraded` tells a refused or unanswered upgrade from a stream
    /// that was upgraded and then failed.
    case failed(PriceStreamError, upgraded: Bool)
    /// Not opened, and why (no stream for the currency, streams off, a limit from an earlier
    /// run: doctor never knocks on a stream that refused us).
    case notAsked(String)
  }

  /// The steps of opening a stream, in order.
  public enum Step: String, CaseIterable, Sendable {
    case proxy, connect, tls, upgrade, message
  }

  public let source: String
  public let url: String
  /// `direct`, or `through http://***@proxy:3128 (from $https_proxy)`.
  public let route: String
  public let outcome: Outcome
  /// From the start of the connection to the first message, or to the failure.
  public let latency: Duration?

  public init(source: String, url: String, route: String, outcome: Outcome, latency: Duration?) {
    self.source = source
    self.url = url
    self.route = route
    self.outcome = outcome
    self.latency = latency
  }

  /// The step the stream failed at, from the kind of failure.
  public var failedStep: Step? {
    guard case .failed(let error, let upgraded) = outcome else { return nil }
    if upgraded { return .message }
    switch error {
    case .unreachable(let reason) where reason.contains("proxy"): return .proxy
    case .unreachable(let reason) where reason.contains("TLS"): return .tls
    case .unreachable: return .connect
    default: return .upgrade
    }
  }

  /// Each step's state, in order (the same states as ``DoctorCheck``'s).
  public var steps: [(step: Step, state: DoctorCheck.StepState)] {
    let direct = route.hasPrefix("direct")
    let secure = url.lowercased().hasPrefix("wss:")
    let reached: Int?
    switch outcome {
    case .message: reached = Step.allCases.count
    case .failed: reached = failedStep.flatMap { Step.allCases.firstIndex(of: $0) }
    case .notAsked: reached = nil
    }
    return DoctorCheck.states(of: Step.allCases, reached: reached) {
      ($0 == .proxy && direct) || ($0 == .tls && !secure)
    }
  }

  /// One line: `first message: a trade at 68901.23`, `failed at upgrade: …`, `not asked: …`.
  public var verdict: String {
    switch outcome {
    case .message(.trade(let price)): return "first message: a trade at \(price)"
    case .message(.alive): return "first message: a heartbeat or acknowledgement"
    case .message(.reconnectSoon): return "first message: the server will restart soon"
    case .failed(let error, _): return "failed at \(failedStep?.rawValue ?? "open"): \(error)"
    case .notAsked(let reason): return "not asked: \(reason)"
    }
  }

  /// Why it failed, in words, and what that means for the ticks.
  public var advice: String? {
    guard case .failed(let error, let upgraded) = outcome else { return nil }
    let fallBack = "ticks fall back to REST meanwhile"
    switch error {
    case .handshakeFailed(451?, _, _):
      return "the exchange refuses this location (451) for its stream and its REST alike; put"
        + " another source first (--sources)"
    case .handshakeFailed(let status?, _, _) where status == 418 || status == 429:
      return "the exchange limits this address (\(status)); the tool does not reconnect before"
        + " the limit ends; \(fallBack)"
    case .handshakeFailed(let status?, _, _) where status == 401 || status == 403:
      return "the stream was refused (\(status)): a firewall or the exchange blocks it; \(fallBack)"
    case .handshakeFailed:
      return "the server answered but did not upgrade to WebSocket: a proxy or firewall that does"
        + " not pass WebSockets, or a wrong stream URL; \(fallBack)"
    case .silent where !upgraded:
      return "no answer to the upgrade: a proxy or firewall may hold WebSocket connections;"
        + " \(fallBack)"
    case .silent:
      return "upgraded, but nothing arrived: the subscription may be wrong, or a proxy holds the"
        + " messages back; \(fallBack)"
    case .subscriptionRefused:
      return "the exchange refused the subscription: check the currency and the stream URL"
    case .unreachable(let reason) where reason.contains("proxy"):
      return reason
    case .unreachable(let reason) where reason.contains("TLS"):
      return "TLS failed: behind a proxy that inspects TLS, give its certificate authority with"
        + " --ca-file (or $SSL_CERT_FILE)"
    case .unreachable:
      return "cannot reach the stream's host: behind a company firewall, set --proxy (or"
        + " $https_proxy); \(fallBack)"
    case .closed, .invalidMessage, .frameTooLarge, .protocolViolation:
      return "the stream misbehaved; \(fallBack)"
    }
  }
}
