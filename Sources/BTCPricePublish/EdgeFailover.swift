import BTCPriceCore

/// Which edge a tick is published to, and what each edge's answer means for the next ticks.
///
/// Edges are asked in the order given; the first that takes the tick's messages has it (through
/// Redis every edge's viewers get it). An edge that fails (a 5xx, no answer in time, a refused
/// connection) rests for a jittered back-off that doubles while it keeps failing, and the tick
/// goes on to the next edge at once: a dead edge costs the tick one attempt's time, not the tick.
/// An edge that answers 4xx is misconfigured (a wrong path, a wrong password): that is said once,
/// with the status, and it is asked again only after ``Policy/refusalPause``, never every tick.
///
/// Pure: times are offsets on the publisher's clock, so tests step them by hand.
public struct EdgeFailover: Sendable {
  public struct Policy: Equatable, Sendable {
    /// How long one request to an edge may take before the next edge is asked.
    public var attemptTimeout: Duration
    /// The rest after an edge's first failure (half of it to all of it, at random).
    public var firstRetry: Duration
    /// The longest rest: an edge that is back (or a Redis that restarted) is found within it.
    public var longestRetry: Duration
    /// The rest after a 4xx: a configuration error is not retried at the tick's rate.
    public var refusalPause: Duration

    public init(
      attemptTimeout: Duration, firstRetry: Duration, longestRetry: Duration,
      refusalPause: Duration
    ) {
      self.attemptTimeout = attemptTimeout
      self.firstRetry = firstRetry
      self.longestRetry = longestRetry
      self.refusalPause = refusalPause
    }

    /// Half the interval per attempt (so a dead first edge still leaves time for the next one
    /// within the tick), at least 500 ms and at most 2 s; rests from 1 s doubling to 10 s; a
    /// minute after a 4xx.
    public static func standard(interval: Duration) -> Policy {
      Policy(
        attemptTimeout: min(max(interval / 2, .milliseconds(500)), .seconds(2)),
        firstRetry: .seconds(1), longestRetry: .seconds(10), refusalPause: .seconds(60))
    }
  }

  /// How one request to an edge went.
  public enum Outcome: Equatable, Sendable {
    case accepted
    /// A 4xx (other than 408 and 429) or a 3xx: the URL or its credentials are wrong.
    case refused(status: Int)
    /// A 5xx, 408, 429, no answer in time, or no connection: try another edge, this one later.
    case failed(String)

    /// What an HTTP status means for a publish.
    public static func of(status: Int) -> Outcome {
      switch status {
      case 200..<300: return .accepted
      case 408, 429, 500...: return .failed("HTTP \(status)")
      default: return .refused(status: status)
      }
    }
  }

  /// What is worth telling the operator, each once per episode.
  public enum Notice: Equatable, Sendable {
    /// The edge answered 4xx: a configuration error.
    case refused(status: Int, pause: Duration)
    /// The edge failed after it last worked (or at its first attempt).
    case down(reason: String)
    /// The edge took a tick again after failing or refusing.
    case back
  }

  private struct Edge {
    var restingUntil: Duration?
    var nextRest: Duration
    var failing = false
    var refusedStatus: Int?
  }

  public let policy: Policy
  private var edges: [Edge]
  private let jitter: @Sendable () -> Double

  /// - Parameter jitter: a number in 0...1 (random in production); each rest is between half and
  ///   all of the back-off, so that publishers do not come back in step.
  public init(
    edgeCount: Int, policy: Policy,
    jitter: @escaping @Sendable () -> Double = ReconnectBackoff.randomJitter
  ) {
    self.policy = policy
    self.jitter = jitter
    edges = Array(repeating: Edge(nextRest: policy.firstRetry), count: edgeCount)
  }

  /// The edges to ask at `now`, in order: every edge not resting.
  public func candidates(at now: Duration) -> [Int] {
    edges.indices.filter { index in
      edges[index].restingUntil.map { now >= $0 } ?? true
    }
  }

  /// Records how asking edge `index` went at `now`; returns what to tell, if anything.
  public mutating func record(_ outcome: Outcome, edge index: Int, at now: Duration) -> Notice? {
    var edge = edges[index]
    defer { edges[index] = edge }
    switch outcome {
    case .accepted:
      let wasTroubled = edge.failing || edge.refusedStatus != nil
      edge = Edge(nextRest: policy.firstRetry)
      return wasTroubled ? .back : nil
    case .refused(let status):
      edge.restingUntil = now + policy.refusalPause
      defer { edge.refusedStatus = status }
      return edge.refusedStatus == status
        ? nil : .refused(status: status, pause: policy.refusalPause)
    case .failed(let reason):
      let rest = edge.nextRest / 2 + edge.nextRest / 2 * min(max(jitter(), 0), 1)
      edge.restingUntil = now + rest
      edge.nextRest = min(edge.nextRest * 2, policy.longestRetry)
      defer { edge.failing = true }
      return edge.failing ? nil : .down(reason: reason)
    }
  }
}
