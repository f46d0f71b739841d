import BTCPriceTestSupport
import Testing

@testable import btc_price

/// The command's own checks, through ArgumentParser's `parse` (which runs `validate()`), without
/// starting a process: the end-to-end tests show that a refusal exits with status 64; these pin
/// each boundary.
@Suite("Refuse option combinations that cannot work", .hangLimit(.seconds(30)))
struct ValidateOptionsTests {
  @Test(
    arguments: [
      (["--once", "--max-age", "10"], nil),
      (["--count", "1", "--max-age", "10"], nil),
      (["--max-age", "10"], "--max-age needs --once."),
      (["--count", "2", "--max-age", "10"], "--max-age needs --once."),
      (["--once", "--max-age", "0.001"], nil),
      (["--once", "--max-age", "86400"], nil),
      (["--once", "--max-age", "0"], "--max-age must be between 0 and 86400 seconds."),
      (["--once", "--max-age", "86400.001"], "--max-age must be between 0 and 86400 seconds."),
      (
        ["--once", "--max-age", "10", "--no-cache"],
        "--max-age reads the cache; it cannot go with --no-cache."
      ),
    ] as [([String], String?)])
  func maxAge_needsOneRunACacheAndAnAgeUpToADay(arguments: [String], refusal: String?) {
    do {
      _ = try BTCPriceCommand.parse(arguments)
      #expect(refusal == nil, "accepted \(arguments)")
    } catch {
      #expect(BTCPriceCommand.message(for: error) == refusal, "\(arguments)")
    }
  }
}
