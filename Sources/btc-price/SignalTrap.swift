import Dispatch
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT/SIGTERM into a call, so the tool can cancel the tick in flight and exit cleanly
/// instead of dying mid-write.
///
/// If the orderly shutdown takes longer than `grace`, or a second signal arrives, the process
/// exits at once with the conventional status.
///
/// `@unchecked Sendable` only because of `sources`, which is written once, in `init`, and only
/// kept to hold the Dispatch sources alive.
final class SignalTrap: @unchecked Sendable {
  private let first = NIOLockedValueBox<Int32?>(nil)
  private var sources: [any DispatchSourceSignal] = []

  /// `beforeHardExit` runs just before an exit that skips the orderly shutdown, to restore the
  /// terminal.
  init(
    _ signals: [Int32], grace: DispatchTimeInterval = .milliseconds(500),
    beforeHardExit: @escaping @Sendable () -> Void = {},
    _ handler: @escaping @Sendable (Int32) -> Void
  ) {
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [weak self] in
        guard let self else { return }
        if self.record(number) {
          handler(number)
          DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            beforeHardExit()
            Self.exitNow(number)
          }
        } else {
          beforeHardExit()
          Self.exitNow(number)
        }
      }
      source.resume()
      sources.append(source)
    }
  }

  /// The first signal received, if any.
  var received: Int32? {
    first.withLockedValue { $0 }
  }

  /// Records the signal; true when it is the first one.
  private func record(_ number: Int32) -> Bool {
    first.withLockedValue { first in
      guard first == nil else { return false }
      first = number
      return true
    }
  }

  private static func exitNow(_ number: Int32) -> Never {
    _exit(number == SIGINT ? 130 : 0)
  }
}
