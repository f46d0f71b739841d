import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price doctor`'s look at each edge a publisher would publish to
/// (`BTC_PRICE_PUBLISH_URLS`): one `GET` of the stream channel's state on its publisher location,
/// the way a standby looks, and what that says in words.
public enum EdgeProbe {
  /// Asks `target` once, within `timeout` on `clock`.
  public static func check(
    _ target: PublishTarget, client: any BTCHTTPClient, clock: any Clock<Duration>,
    timeout: Duration
  ) async -> String {
    let (elapsed, asked) = (ElapsedClock(clock), target.channelInfoRequest)
    do {
      let response = try await race(
        { try await client.get(asked) }, until: elapsed.now.advanced(by: timeout), on: elapsed)
      return verdict(status: response.status, body: response.body)
    } catch is DeadlineExceeded {
      return "no answer within \(timeout.secondsText) s"
    } catch {
      return "not reachable: \(error)"
    }
  }

  /// What an edge's answer means for a publisher.
  public static func verdict(status: Int, body: Data) -> String {
    switch status {
    case 200..<300:
      return EdgeChannelInfo.lastMessageID(in: body).map {
        "takes publishes; newest message \($0)"
      } ?? "takes publishes; no message yet"
    case 404:
      return "takes publishes; no message yet (the first publish makes the channel), or HTTP 404 "
        + "for a wrong path"
    case 401, 403:
      return "HTTP \(status): the URL's user name and password are missing or wrong"
    case 400..<500:
      return "HTTP \(status): not an nchan publisher location (check the URL's path)"
    default:
      return "HTTP \(status): the edge cannot publish now (is its Redis up?)"
    }
  }
}
