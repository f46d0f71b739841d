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

/// How the tool answers signals.
///
/// - SIGINT and SIGTERM end it: `terminate` starts an orderly shutdown (the tick in flight is
///   cancelled, the cache flushed, the cursor given back). If that takes longer than `grace`, or
///   a second signal comes, the process exits at once after `beforeHardExit`. Nothing on that
///   path may wait for a lock or a write that a stalled reader holds, so the tool always ends
///   within `grace` plus a few milliseconds, even with stdout blocked.
/// - With `jobControl` (the live panel): SIGTSTP gives the terminal back, then stops the process
///   as the default action would; SIGCONT draws the panel again; SIGWINCH lays it out at the new
///   width at once.
///
/// The handlers run on one serial Dispatch queue, never in a signal handler's restricted context.
public final class SignalTrap: Sendable {
  public struct JobControl: Sendable {
    let suspend: @Sendable () -> Void
    let resume: @Sendable () -> Void
    let resized: @Sendable () -> Void
  }

  private let first = NIOLockedValueBox<Int32?>(nil)
  /// Kept only to keep the Dispatch sources alive.
  private let sources: [SignalSource]

  public init(
    grace: DispatchTimeInterval = .milliseconds(300),
    beforeHardExit: @escaping @Sendable () -> Void,
    jobControl: JobControl? = nil,
    terminate: @escaping @Sendable (Int32) -> Void
  ) {
    let queue = DispatchQueue(label: "btc-price.signals")
    let first = first
    @Sendable func exitNow(_ number: Int32) -> Never {
      beforeHardExit()
      _exit(Self.status(after: number))
    }
    var installed: [SignalSource] = []
    for number in [SIGINT, SIGTERM] {
      installed.append(
        SignalSource(number, on: queue) {
          let isFirst = first.withLockedValue { received in
            defer { received = received ?? number }
            return received == nil
          }
          guard isFirst else { exitNow(number) }
          terminate(number)
          queue.asyncAfter(deadline: .now() + grace) { exitNow(number) }
        })
    }
    if let jobControl {
      installed.append(
        SignalSource(SIGTSTP, on: queue) {
          jobControl.suspend()
          Self.stopAsTheDefaultActionWould()
        })
      installed.append(SignalSource(SIGCONT, on: queue, jobControl.resume))
      installed.append(SignalSource(SIGWINCH, on: queue, jobControl.resized))
    }
    sources = installed
  }

  /// The first terminating signal received, if any.
  public var received: Int32? {
    first.withLockedValue { $0 }
  }

  /// The exit status after a terminating signal: 130 after Ctrl-C, 0 after SIGTERM.
  public static func status(after signal: Int32) -> Int32 {
    signal == SIGINT ? 130 : 0
  }

  /// Stops the process with SIGTSTP's default action, so the shell reports "Stopped" and `fg`
  /// continues it here. The trap ignores SIGTSTP to handle it, so the default is put back for
  /// this one signal, sent to this thread only, and the trap's disposition restored after.
  private static func stopAsTheDefaultActionWould() {
    signal(SIGTSTP, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, SIGTSTP)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &only, &previous)
    raise(SIGTSTP)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    signal(SIGTSTP, SIG_IGN)
  }
}

/// One signal turned into calls on a queue. The signal's default action is switched off
/// (SIG_IGN) so that the Dispatch source alone decides.
///
/// `@unchecked Sendable`: Dispatch's source types are not marked `Sendable`, but a source is
/// thread-safe, and this one is configured in `init` and only kept alive afterwards.
private final class SignalSource: @unchecked Sendable {
  private let source: any DispatchSourceSignal

  init(_ number: Int32, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
    signal(number, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: number, queue: queue)
    source.setEventHandler(handler: handler)
    source.resume()
  }
}
