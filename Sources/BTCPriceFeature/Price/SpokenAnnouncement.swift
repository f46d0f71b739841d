/// Something VoiceOver should say once, unasked: the banner appearing or going away.
///
/// It carries a sequence number so that the same words twice in a row (the price failed, came
/// back, failed again) are two announcements, not one unchanged value.
public struct SpokenAnnouncement: Equatable, Sendable {
  /// What to say, in words that do not depend on the locale.
  public let text: String
  /// Counts the announcements of one screen, from 1.
  public let sequence: Int

  public init(text: String, sequence: Int) {
    self.text = text
    self.sequence = sequence
  }
}
