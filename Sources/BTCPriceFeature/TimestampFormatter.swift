import Foundation

/// Formats when a price was received: `Nov 22, 14:03` in the apps, `Nov 22, 14:03:05` in the CLI.
///
/// English month abbreviations and a 24-hour clock whatever the locale, in the given time zone.
public struct TimestampFormatter: Sendable {
  public enum Precision: Sendable {
    /// `MMM d, HH:mm`, for the apps.
    case minutes
    /// `MMM d, HH:mm:ss`, for the terminal, which updates every second.
    case seconds
  }

  private let style: Date.VerbatimFormatStyle

  public init(precision: Precision, timeZone: TimeZone = .current) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let format: Date.FormatString
    switch precision {
    case .minutes:
      format = """
        \(month: .abbreviated) \(day: .defaultDigits), \
        \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)
        """
    case .seconds:
      format = """
        \(month: .abbreviated) \(day: .defaultDigits), \
        \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\
        \(second: .twoDigits)
        """
    }
    style = Date.VerbatimFormatStyle(
      format: format, locale: Locale(identifier: "en_US_POSIX"), timeZone: timeZone,
      calendar: calendar)
  }

  public func format(_ date: Date) -> String {
    date.formatted(style)
  }
}
