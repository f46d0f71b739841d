import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The stream viewers of the whole server: one ``LoopFanout`` per event loop, each attached to
/// the broadcaster once.
///
/// A tick then costs one job per event loop that writes the frame to each of its viewers'
/// connections, instead of waking one task per viewer that hops to its connection's loop to
/// write (docs/PERFORMANCE.md measures both at 10,000 viewers).
final class StreamHub: Sendable {
  private let broadcaster: PriceBroadcaster
  private let fanouts = NIOLockedValueBox<[ObjectIdentifier: LoopFanout]>([:])
  private let counts = NIOLockedValueBox((viewers: 0, dropped: 0))
  private let onDrop: @Sendable () -> Void

  /// - Parameter onDrop: told each time a viewer is dropped for falling behind (the metrics).
  init(broadcaster: PriceBroadcaster, onDrop: @escaping @Sendable () -> Void = {}) {
    self.broadcaster = broadcaster
    self.onDrop = onDrop
  }

  var viewerCount: Int { counts.withLockedValue { $0.viewers } }
  var droppedCount: Int { counts.withLockedValue { $0.dropped } }

  /// The fan-out of `loop`, attached on first use; nil once the broadcaster has finished.
  func fanout(for loop: any EventLoop) -> LoopFanout? {
    fanouts.withLockedValue { fanouts in
      let key = ObjectIdentifier(loop)
      if let fanout = fanouts[key] { return fanout }
      let fanout = LoopFanout(loop: loop, broadcaster: broadcaster, hub: self)
      guard let latest = broadcaster.attach(fanout) else { return nil }
      fanout.start(after: latest)
      fanouts[key] = fanout
      return fanout
    }
  }

  func viewerJoined() {
    counts.withLockedValue { $0.viewers += 1 }
  }

  func viewerLeft(dropped: Bool) {
    counts.withLockedValue {
      $0.viewers -= 1
      if dropped { $0.dropped += 1 }
    }
    if dropped { onDrop() }
  }
}
