import HTTPTypes
import Hummingbird
import NIOCore

/// Runs first on every request: only GET and HEAD get through (`405` with `Allow` otherwise),
/// errors become plain-text responses, and every response, errors included, carries the security
/// headers.
struct GuardMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  /// Scripts, styles, images, the stream and the manifest come from this server only, nothing
  /// inline, and no other site may frame the page.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
    + "frame-ancestors 'none'"

  static let securityHeaders: [(HTTPField.Name, String)] = [
    (.contentSecurityPolicy, contentSecurityPolicy),
    (.xContentTypeOptions, "nosniff"),
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
