/// What a refused stream handshake means for the limits that outlive the run, decided in one
/// place.
///
/// - 451 (restricted location) and 418 (an IP ban) say something about *us*, not about one
///   connection: Binance blocks a region and bans an IP for every host it runs, so the
///   exchange's REST is left alone for as long as its stream is (a REST request would only earn
///   the same answer, and with 418 a longer ban).
/// - 429 (too many connection attempts: Binance allows 300 per 5 minutes per IP) and 401 / 403
///   (a firewall or rule in front of the stream host) limit the stream only: REST has its own
///   budget and answers for itself, and a REST refusal joins the limits on its own.
public enum StreamRefusal {
  /// The source error a refused upgrade stands for, as REST would have reported the same status;
  /// nil for anything that is not a refusal that sets a limit (a server that did not answer, a
  /// 500, a close).
  public static func cause(of error: PriceStreamError) -> PriceSourceError? {
    guard case .handshakeFailed(let status?, _, let retryAfter) = error else { return nil }
    let message = "the stream's upgrade was refused"
    switch status {
    case 418, 429: return .rateLimited(status: status, retryAfter: retryAfter, message: message)
    case 401, 403, 451: return .httpStatus(status, message: message)
    default: return nil
    }
  }

  /// Whether `cause` (from ``cause(of:)``) also leaves the exchange's REST alone.
  public static func limitsREST(_ cause: PriceSourceError) -> Bool {
    switch cause {
    case .httpStatus(451, _), .rateLimited(status: 418, _, _): true
    default: false
    }
  }
}
