/// When a standby publisher (`btc-price publish --standby`) publishes its ticks.
///
/// Two publishers may run at once, on two machines, so that the price goes on when one stops.
/// Viewers must still get one event per tick, so only one publishes: the active one always, the
/// standby only while nobody else does. The standby knows by watching the channel it would
/// publish to: before each of its ticks it asks an edge for the stream channel's newest message
/// id (a `GET` on the publisher location, ``EdgeChannelInfo``), and
///
/// 1. **watching**, it stays quiet while the id changes. When it has seen the same id (or no
///    message at all) for ``silence`` (two intervals: two looks in a row with nothing new), it
///    takes over. Any two-interval window holds one whole tick slot of the active publisher,
///    which publishes once a slot, so a live active one is never taken over; and the first look
///    after the active one's last message comes within an interval of it, so the standby's
///    first tick reaches viewers within three intervals of the last one.
/// 2. **active**, it publishes every tick, and remembers the id its own stream message got. When
///    an edge shows a newer id than its own, someone else published (the active one is back):
///    it stands down at once and watches again. At most one tick then reaches viewers twice.
///    An empty channel (Redis restarted) is nobody else's message: it goes on.
///
/// If the standby cannot look (no edge answers), it changes nothing: watching, it waits;
/// active, it goes on trying to publish. Pure: times are offsets on the publisher's clock.
public struct StandbyRule: Equatable, Sendable {
  /// A change of role, told on stderr.
  public enum Change: Equatable, Sendable {
    /// Nothing new on the channel for this long: the standby publishes.
    case tookOver(silence: Duration)
    /// Another publisher's message appeared: the standby is quiet again.
    case stoodDown
  }

  private enum Phase: Equatable {
    case starting
    case watching(lastSeen: String?, since: Duration)
    case active(own: String?)
  }

  /// How long an unchanged channel means that nobody publishes.
  public let silence: Duration
  private var phase = Phase.starting

  public init(interval: Duration) {
    silence = interval * 2
  }

  /// Publishing now, or watching.
  public var isActive: Bool {
    if case .active = phase { return true }
    return false
  }

  /// The standby looked at `now` and found `lastMessageID` (nil: the channel has no message).
  /// Returns whether this tick is published, and the change of role, if any.
  public mutating func observe(_ lastMessageID: String?, at now: Duration) -> (
    publish: Bool, change: Change?
  ) {
    switch phase {
    case .starting:
      phase = .watching(lastSeen: lastMessageID, since: now)
      return (false, nil)
    case .watching(let lastSeen, let since):
      guard lastMessageID == lastSeen else {
        phase = .watching(lastSeen: lastMessageID, since: now)
        return (false, nil)
      }
      guard now - since >= silence else { return (false, nil) }
      phase = .active(own: nil)
      return (true, .tookOver(silence: now - since))
    case .active(let own):
      guard let lastMessageID, let own, lastMessageID != own else { return (true, nil) }
      phase = .watching(lastSeen: lastMessageID, since: now)
      return (false, .stoodDown)
    }
  }

  /// The standby's own stream message got `messageID`.
  public mutating func published(_ messageID: String?) {
    guard case .active = phase else { return }
    phase = .active(own: messageID)
  }
}
