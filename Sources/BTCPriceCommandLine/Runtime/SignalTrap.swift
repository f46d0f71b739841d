import BTCPriceCore
import BTCPriceRuntime
import CBTCPriceRuntime
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
/// The handlers run one at a time on a thread of the trap's own, never in a signal handler's
/// restricted context: the handler (in C, CBTCPriceRuntime) only writes the signal's number to a
/// pipe that the thread reads. Not libdispatch's signal sources: their manager thread arms
/// libdispatch's once-a-second pool monitor for the life of the process (``ConcurrencyPool``).
public final class SignalTrap: Sendable {
  public struct JobControl: Sendable {
    let suspend: @Sendable () -> Void
    let resume: @Sendable () -> Void
    let resized: @Sendable () -> Void
  }

  private let first = NIOLockedValueBox<Int32?>(nil)

  public init(
    grace: Duration = .milliseconds(300),
    beforeHardExit: @escaping @Sendable () -> Void,
    jobControl: JobControl? = nil,
    terminate: @escaping @Sendable (Int32) -> Void
  ) {
    let first = first
    @Sendable func exitNow(_ number: Int32) -> Never {
      beforeHardExit()
      _exit(Self.status(after: number))
    }
    var handled = [SIGINT, SIGTERM]
    if jobControl != nil { handled += [SIGTSTP, SIGCONT, SIGWINCH] }
    // Without a pipe or its thread the signals keep their default actions: Ctrl-C and SIGTERM
    // still end the tool, only not in order.
    guard let pipe = SignalPipe(forwarding: handled) else { return }
    let started = pipe.start { number, deadline in
      switch number {
      case SIGINT, SIGTERM:
        let isFirst = first.withLockedValue { received in
          defer { received = received ?? number }
          return received == nil
        }
        guard isFirst else { exitNow(number) }
        terminate(number)
        deadline = .now + grace
      case SIGTSTP:
        jobControl?.suspend()
        Self.stopAsTheDefaultActionWould()
      case SIGCONT: jobControl?.resume()
      case SIGWINCH: jobControl?.resized()
      default: break
      }
    } onDeadline: {
      exitNow(first.withLockedValue { $0 } ?? SIGTERM)
    }
    if !started {
      for number in handled { signal(number, SIG_DFL) }
    }
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
  /// continues it here. The trap's handler takes SIGTSTP, so the default is put back for this
  /// one signal, sent to this thread only, and the handler put back after.
  private static func stopAsTheDefaultActionWould() {
    signal(SIGTSTP, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, SIGTSTP)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &only, &previous)
    raise(SIGTSTP)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    _ = btc_signal_forward(SIGTSTP, SignalPipe.writeEnd)
  }
}

/// The pipe the C handler writes each signal's number to, and the thread that reads it.
private struct SignalPipe {
  /// The write end every forwarded signal goes to (the C handler keeps its own copy).
  nonisolated(unsafe) static var writeEnd: Int32 = -1
  let readEnd: Int32

  /// Forwards `signals` to a new pipe; nil when no pipe could be made.
  init?(forwarding signals: [Int32]) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    readEnd = ends[0]
    Self.writeEnd = ends[1]
    for number in signals { _ = btc_signal_forward(number, ends[1]) }
  }

  /// Reads the signals on a thread of their own (every signal blocked there) and hands each to
  /// `handle`, which may set a deadline; `onDeadline` runs when one passes before a signal comes.
  /// False when no thread could be made.
  func start(
    _ handle:
      @escaping @Sendable (_ signal: Int32, _ deadline: inout ContinuousClock.Instant?)
      -> Void,
    onDeadline: @escaping @Sendable () -> Void
  ) -> Bool {
    let readEnd = readEnd
    return WorkerThread.start(named: "signals") {
      var deadline: ContinuousClock.Instant?
      while true {
        var wait = Int32(-1)
        if let deadline {
          let left = ContinuousClock.now.duration(to: deadline)
          guard left > .zero else { return onDeadline() }
          wait = Int32(max(1, (left / .milliseconds(1)).rounded(.up)))
        }
        var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let polled = poll(&ready, 1, wait)
        if polled == 0 { continue }
        if polled < 0 {
          guard errno == EINTR else { return }
          continue
        }
        var number: UInt8 = 0
        let count = read(readEnd, &number, 1)
        if count == 1 {
          handle(Int32(number), &deadline)
        } else if count == 0 || errno != EINTR {
          return
        }
      }
    }
  }
}
