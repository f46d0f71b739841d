import Foundation

/// Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3): a number of seconds, or a date.
public enum RetryAfter {
  /// Longer than any ban Binance documents (3 days); a larger value is a broken header, not a
  /// reason to give up on a source for good.
  public static let longest: Duration = .seconds(7 * 24 * 3600)

  /// How long to wait from `now`; nil when the value is neither form. A date in the past means
  /// "now" (zero).
  public static func parse(_ value: String, now: Date) -> Duration? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    {
      // Digits only; too many of them is just "very long".
      return Int64(text).map { min(.seconds($0), longest) } ?? longest
    }
    guard let date = httpDate(text) else { return nil }
    let seconds = date.timeIntervalSince(now)
    return seconds <= 0 ? .zero : min(.milliseconds(Int64((seconds * 1000).rounded(.up))), longest)
  }

  /// IMF-fixdate, and the two obsolete forms that RFC 9110 says recipients must still accept.
  private static func httpDate(_ text: String) -> Date? {
    for format in [
      "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
      "EEE MMM d HH:mm:ss yyyy",
    ] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
