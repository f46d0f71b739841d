import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The order every mapper reads an answer in, so that none of them loses a reason: the status
/// first (with the API's own error text, when the body has one), then the JSON (with the parser's
/// reason when it is not JSON), then an error the API put in a 200 body.
enum SourceAnswer {
  /// The answer's JSON document, once the status and the body say it is not an error.
  ///
  /// - Parameters:
  ///   - definition: whose answer it is (its display name words an error in a 200 body).
  ///   - errorMessage: the API's error text in a document, if it holds one.
  ///   - bodyError: what an error sent with HTTP 200 means; by default invalid data.
  static func json(
    _ response: BTCHTTPResponse, from definition: PriceSourceDefinition,
    errorMessage: (JSONValue) -> String?,
    bodyError: ((String) -> PriceSourceError)? = nil
  ) throws(PriceSourceError) -> JSONValue {
    try json(
      response, from: definition.source, errorMessage: errorMessage, bodyError: bodyError)
  }

  /// ``json(_:from:errorMessage:bodyError:)`` for an answer of `source`, whichever of its
  /// endpoints (a price, candles) gave it.
  static func json(
    _ response: BTCHTTPResponse, from source: PriceSource,
    errorMessage: (JSONValue) -> String?,
    bodyError: ((String) -> PriceSourceError)? = nil
  ) throws(PriceSourceError) -> JSONValue {
    let parsed: Result<JSONValue, JSONValue.SyntaxError>
    do {
      parsed = .success(try JSONValue.parse(response.body))
    } catch {
      parsed = .failure(error)
    }
    guard response.status == 200 else {
      let message = (try? parsed.get()).flatMap(errorMessage).map(UntrustedText.excerpt)
      throw .httpStatus(response.status, message: message)
    }
    let json: JSONValue
    do {
      json = try parsed.get()
    } catch {
      throw .invalidData(error.description)
    }
    if let message = errorMessage(json).map(UntrustedText.excerpt) {
      throw bodyError?(message)
        ?? .invalidData("\(source.displayName) error: \(message)")
    }
    return json
  }
}

extension SourceAnswer {
  /// The answer to `request`: a transport failure is ``PriceSourceError/unreachable(_:)``, a
  /// body over the request's limit ``PriceSourceError/invalidData(_:)``.
  static func response(to request: BTCHTTPRequest, from client: any BTCHTTPClient) async throws
    -> BTCHTTPResponse
  {
    do {
      return try await client.get(request)
    } catch let error as BTCHTTPClientError {
      if case .bodyTooLarge = error { throw PriceSourceError.invalidData(error.description) }
      throw PriceSourceError.unreachable(error.description)
    }
  }

  /// 429 and 418 become ``PriceSourceError/rateLimited(status:retryAfter:message:)`` with the
  /// server's `Retry-After`, so the chain leaves the source alone for as long as it asked.
  static func rateLimitAware(
    _ error: PriceSourceError, in response: BTCHTTPResponse, now: Date
  ) -> PriceSourceError {
    guard case .httpStatus(let status, let message) = error, status == 429 || status == 418 else {
      return error
    }
    let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.parse($0, now: now) }
    return .rateLimited(status: status, retryAfter: retryAfter, message: message)
  }
}
