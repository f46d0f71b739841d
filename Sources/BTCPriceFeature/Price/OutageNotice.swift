import BTCPriceCore

/// "Say why, once": when no source has given a price for `threshold` ticks in a row (at the
/// start, or after a success), one line naming the common reason; when prices come back, one
/// line saying so. Between the two, nothing more: the reason does not change by being repeated.
///
/// A value the caller keeps and feeds every tick's update; the lines are for stderr.
public struct OutageNotice: Sendable {
  private let threshold: Int
  private var failedTicks = 0
  private var warned = false
  /// The common reason while no source gives a price, once it has been said; nil otherwise.
  public private(set) var reason: String?

  /// - Parameter threshold: failed ticks in a row before the warning
  ///   (``PriceTickLoop/outageThreshold``); a run of fewer ticks (`--once`) passes its own
  ///   count, so that it too says why.
  public init(threshold: Int) {
    self.threshold = max(1, threshold)
  }

  /// The line to print for this tick's update, if any.
  public mutating func record(_ update: PriceUpdate) -> String? {
    switch update {
    case .fresh(let quote, _):
      defer {
        failedTicks = 0
        warned = false
        reason = nil
      }
      return warned ? "prices are back (from \(quote.source.id))" : nil
    case .stale(_, let failure):
      failedTicks += 1
      guard !warned, failedTicks >= threshold else { return nil }
      warned = true
      let reason = Self.commonReason(failure)
      self.reason = reason
      let ticks = failedTicks == 1 ? "" : " for \(failedTicks) ticks"
      return "no source has given a price\(ticks): \(reason)"
    }
  }

  /// What the sources' failures have in common, with what to do about it.
  public static func commonReason(_ failure: PriceFetchFailure) -> String {
    let asked = failure.failures.filter {
      if case .skipped = $0.error { return false }
      return true
    }
    // Two streams that disagree answered: the reason is that nothing settled it, in words.
    if failure.crossCheck != nil { return failure.description }
    let texts = asked.map { "\($0.error)" }
    func all(_ test: (String) -> Bool) -> Bool { !texts.isEmpty && texts.allSatisfy(test) }
    if all({ $0.contains("proxy") }), let first = texts.first {
      return first.replacingPrefix("unreachable: ")
    }
    if all({ $0.contains("host not found") }) {
      return "no source's host name could be found — is this machine offline? Behind a company"
        + " firewall, set --proxy (or $https_proxy)"
    }
    if all({ $0.contains("TLS failure") }), let first = texts.first {
      return "every source failed TLS: " + first.replacingPrefix("unreachable: TLS failure: ")
    }
    if all({ $0.contains("connection refused") }) {
      return "every source refused the connection — a firewall may block it; behind a company"
        + " firewall, set --proxy (or $https_proxy)"
    }
    if all({ $0.hasPrefix("timed out") || $0.contains("timed out") }) {
      return "no source answered in time — a firewall may be dropping the connections; behind a"
        + " company firewall, set --proxy (or $https_proxy)"
    }
    if asked.isEmpty {
      return "every source is resting after earlier failures (see --verbose)"
    }
    return "every source failed (\(failure))"
  }
}

extension String {
  fileprivate func replacingPrefix(_ prefix: String) -> String {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
  }
}
