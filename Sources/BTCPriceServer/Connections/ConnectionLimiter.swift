import BTCPriceCore
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Counts open connections per client address and refuses those over the limit, so one client
/// (or one misbehaving script) cannot take every connection the server has.
///
/// A reverse proxy is one address for all its users: raise the limit behind one.
public final class ConnectionLimiter: Sendable {
  public let limitPerAddress: Int
  private let counts = NIOLockedValueBox<[String: Int]>([:])

  public init(limitPerAddress: Int) {
    precondition(limitPerAddress > 0)
    self.limitPerAddress = limitPerAddress
  }

  /// Counts a new connection from `address`; false (and not counted) when it is over the limit.
  public func open(_ address: String) -> Bool {
    counts.withLockedValue { counts in
      let count = counts[address, default: 0]
      guard count < limitPerAddress else { return false }
      counts[address] = count + 1
      return true
    }
  }

  public func close(_ address: String) {
    counts.withLockedValue { counts in
      let count = counts[address, default: 0] - 1
      counts[address] = count > 0 ? count : nil
    }
  }

  public func openConnections(from address: String) -> Int {
    counts.withLockedValue { $0[address, default: 0] }
  }

  /// How many addresses are counted: those with a connection open, and no other, so a server
  /// that met millions of clients remembers none of them once they have gone (its tests).
  var countedAddresses: Int {
    counts.withLockedValue { $0.count }
  }
}
