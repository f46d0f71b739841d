import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What nchan says about a channel, to a `GET` on its publisher location or in answer to a
/// publish (with `Accept: text/json`):
/// `{"messages": 1, "requested": 7, "subscribers": 0, "last_message_id": "1450755421:0" }`
/// (nchan's README, "Publishing Messages"). The standby reads ``lastMessageID`` to tell whether
/// anyone published since it last looked.
public enum EdgeChannelInfo {
  /// The id of the channel's newest message, or nil when the body says none.
  public static func lastMessageID(in body: Data) -> String? {
    guard let value = try? JSONValue.parse(body),
      let id = value["last_message_id"]?.stringValue, !id.isEmpty
    else { return nil }
    return id
  }
}
