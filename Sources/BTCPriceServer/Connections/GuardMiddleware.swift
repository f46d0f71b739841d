import HTTPTypes
import Hummingbird
import NIOCore

/// Runs on every request inside Hummingbird's `ContentSecurityMiddleware` (which adds
/// `Content-Security-Policy` and `X-Content-Type-Options` to every response this one returns):
/// only GET and HEAD get through (`405` with `Allow` otherwise), errors become plain-text
/// responses, and every response, errors included, carries the other security headers.
struct GuardMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  /// Scripts, styles, images, the stream and the manifest come from this server only, nothing
  /// inline, and no other site may frame the page.
  static let contentSecurityPolicy: ContentSecurityPolicy = [
    .defaultSrc(.none), .scriptSrc(.self), .styleSrc(.self), .imgSrc(.self), .connectSrc(.self),
    .manifestSrc(.self), .baseURI(.none), .formAction(.none), .frameAncestors(.none),
  ]

  /// Hummingbird's middleware for the policy; it goes first, so that it sees the responses this
  /// one makes of errors too.
  static var contentSecurity: ContentSecurityMiddleware<Context> {
    ContentSecurityMiddleware(contentSecurityPolicy: contentSecurityPolicy)
  }

  static let securityHeaders: [(HTTPField.Name, String)] = [
    (.referrerPolicy, "no-referrer"),
    (.xFrameOptions, "DENY"),
    (
      .permissionsPolicy,
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
    ),
    (.crossOriginOpenerPolicy, "same-origin"),
  ]

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    if request.method == .get || request.method == .head {
      do {
        response = try await next(request, context)
      } catch let error as any HTTPResponseError {
        response = Self.plain(error.status)
      }
    } else {
      response = Self.plain(.methodNotAllowed)
      response.headers[.allow] = "GET, HEAD"
    }
    for (name, value) in Self.securityHeaders { response.headers[name] = value }
    return response
  }

  /// `404 Not Found` and friends as one line of text.
  static func plain(_ status: HTTPResponse.Status) -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: "\(status.code) \(status.reasonPhrase)\n")))
  }
}
