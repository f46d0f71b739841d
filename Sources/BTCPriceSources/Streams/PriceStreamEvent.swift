import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Something that happened to one price stream, for `--verbose`.
public enum PriceStreamEvent: Equatable, Sendable {
  case connecting(PriceSource, URL)
  /// The first message of a connection arrived.
  case connected(PriceSource)
  case closed(PriceSource, PriceStreamError)
  /// The next attempt waits this long.
  case backingOff(PriceSource, Duration)
  /// The exchange refused the stream with a limit (this run or an earlier one): no attempt for
  /// this long.
  case resting(PriceSource, Duration, PriceSourceError)
  /// The server will close soon or the connection is near its age limit: a new connection is
  /// opened before the old one is let go.
  case handingOver(PriceSource)
  /// The standby stream opens in place of these streams, which rest after a refusal.
  case standingIn(PriceSource, for: [PriceSource])
  /// The standby stream is closed: every stream it stood in for delivers again.
  case standingDown(PriceSource)
}
