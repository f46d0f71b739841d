import BTCPriceCore

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
        ?? .invalidData("\(definition.source.displayName) error: \(message)")
    }
    return json
  }
}
