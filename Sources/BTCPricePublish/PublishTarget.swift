import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One edge that `btc-price publish` hands ticks to: the URL of its nchan publisher location
/// (`http://edge:8081/pub`), under which each channel is one path (`/pub/stream`, `/pub/price`,
/// `/pub/page`; see ``EdgeChannel`` and `deploy/edge/edge.conf`).
///
/// The URL may carry credentials (`https://publisher:secret@edge/pub`): they are taken out of
/// the URL and sent as `Authorization: Basic`, and ``redacted`` (the only form that is ever
/// printed) shows neither them nor a query string, which may hold a token.
public struct PublishTarget: Equatable, Sendable, CustomStringConvertible {
  /// The publisher location without credentials, without a trailing slash.
  public let base: URL
  /// `Basic …` from the URL's user info; nil without credentials.
  public let authorization: String?
  /// What may be printed: `https://***@edge.example:443/pub?***`.
  public let redacted: String

  public init(_ text: String) throws(PublishTargetError) {
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased()
    else { throw PublishTargetError(reason: "is not a URL") }
    guard scheme == "http" || scheme == "https" else {
      throw PublishTargetError(reason: "must start with http:// or https://")
    }
    guard let host = components.host, !host.isEmpty else {
      throw PublishTargetError(reason: "names no host")
    }
    guard components.fragment == nil else {
      throw PublishTargetError(reason: "must not have a #fragment")
    }
    let user = components.user
    let password = components.password
    authorization = user.map {
      "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString()
    }
    var bare = components
    bare.user = nil
    bare.password = nil
    while bare.path.hasSuffix("/") { bare.path.removeLast() }
    guard let url = bare.url else { throw PublishTargetError(reason: "is not a URL") }
    base = url
    let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    let port = components.port ?? (scheme == "https" ? 443 : 80)
    redacted =
      "\(scheme)://\(user == nil ? "" : "***@")\(shownHost):\(port)\(bare.path)"
      + (components.percentEncodedQuery == nil ? "" : "?***")
  }

  /// The environment variable that may give the URLs instead of the command line, where `ps`
  /// would show their credentials to every user of the machine.
  public static let environmentVariable = "BTC_PRICE_PUBLISH_URLS"

  /// The URLs given on the command line, or else in ``environmentVariable`` (separated by
  /// spaces, commas or newlines).
  public static func urls(arguments: [String], environment: [String: String]) -> [String] {
    guard arguments.isEmpty else { return arguments }
    return (environment[environmentVariable] ?? "")
      .split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }.map(String.init)
  }

  /// Where one channel is published: the base's path plus `/<channel>`, the query kept.
  public func url(for channel: EdgeChannel) -> URL {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
      return base
    }
    components.path += "/" + channel.rawValue
    return components.url ?? base
  }

  /// The one look at the stream channel's state on this edge's publisher location: nchan's
  /// channel info as JSON (`Accept: text/json`), with the credentials, and no more than a small
  /// document of it (4 KiB): what `doctor` asks (``EdgeProbe``) and what a standby asks before
  /// each tick (``EdgePublisher``).
  public var channelInfoRequest: BTCHTTPRequest {
    var request = BTCHTTPRequest(
      url: url(for: .stream), headers: [("Accept", "text/json")], maxBodySize: 4 * 1024)
    if let authorization {
      request.headers.append(("Authorization", authorization))
    }
    return request
  }

  public var description: String { redacted }
}

/// A publish URL that cannot be used; the reason never repeats the URL (it may hold a password).
public struct PublishTargetError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String

  public init(reason: String) {
    self.reason = reason
  }

  public var description: String { "a publish URL \(reason)" }
}
