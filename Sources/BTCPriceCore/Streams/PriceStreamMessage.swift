#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one message of a price stream says, once its exchange's mapper has read it.
public enum PriceStreamMessage: Equatable, Sendable {
  /// A trade (or a ticker naming the last trade) of the pair we asked for, at this price.
  case trade(Decimal)
  /// A heartbeat, an acknowledgement or any message the exchange may add: the stream is alive.
  case alive
  /// The server said it will close soon (Binance's `serverShutdown`, Bitstamp's
  /// `bts:request_reconnect`): open the next connection now, before this one ends.
  case reconnectSoon
}
