// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceFeature
import BTCPriceCore
import BTCPriceFeature

/// `--format` templates, parsed by `PriceTemplate(_:)`; the input is the template's text.
///
/// Properties of a template that parses:
/// - it keeps the text as written;
/// - written back (each literal with its braces doubled, each placeholder as `{name}`) it is the
///   input, scalar for scalar: no literal text is lost, added or moved, and every brace in a
///   literal was written doubled;
/// - that text parses to the same segments; a literal is never empty and never follows another.
///
/// Of a template that does not: the error's column is a brace of the input, `{` for an unknown
/// placeholder or an opening brace without its pair, `}` for a closing one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size) else { return 0 }
  let template: PriceTemplate
  do {
    template = try PriceTemplate(text)
  } catch {
    checkColumn(of: error, in: text)
    return 0
  }
  guard Array(template.text.unicodeScalars) == Array(text.unicodeScalars) else {
    violated("\(String(reflecting: text)) is kept as \(String(reflecting: template.text))")
  }
  let written = writtenBack(template.segments)
  guard Array(written.unicodeScalars) == Array(text.unicodeScalars) else {
    violated(
      "\(String(reflecting: text)) parsed to \(template.segments), written back as "
        + String(reflecting: written))
  }
  guard let again = try? PriceTemplate(written), again.segments == template.segments else {
    violated("\(String(reflecting: written)), written back, does not parse to the same segments")
  }
  for (index, segment) in template.segments.enumerated() {
    guard case .literal(let literal) = segment else { continue }
    guard !literal.isEmpty else { violated("\(String(reflecting: text)): an empty literal") }
    if index > 0, case .literal = template.segments[index - 1] {
      violated("\(String(reflecting: text)): two literals in a row")
    }
  }
  return 0
}

/// The template text of `segments`, as a user would write it: `{{` and `}}` for literal braces.
func writtenBack(_ segments: [PriceTemplate.Segment]) -> String {
  var text = ""
  for segment in segments {
    switch segment {
    case .placeholder(let placeholder):
      text += "{\(placeholder.rawValue)}"
    case .literal(let literal):
      for character in literal {
        text.append(character)
        if character == "{" || character == "}" { text.append(character) }
      }
    }
  }
  return text
}

func checkColumn(of error: PriceTemplate.ParseError, in text: String) {
  let characters = Array(text)
  guard error.column >= 1, error.column <= characters.count else {
    violated("\(String(reflecting: text)): error at column \(error.column), outside the text")
  }
  let expected: Character =
    switch error.kind {
    case .unknownPlaceholder, .unmatchedOpeningBrace: "{"
    case .unmatchedClosingBrace: "}"
    }
  guard characters[error.column - 1] == expected else {
    violated(
      "\(String(reflecting: text)): \(error.kind) at column \(error.column), which holds "
        + String(reflecting: characters[error.column - 1]))
  }
}
