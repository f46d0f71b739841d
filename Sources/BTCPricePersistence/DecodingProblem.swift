#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a state file could not be read, in a few words for a warning: `missing "version"`, not
/// `DecodingError.keyNotFound(CodingKeys(stringValue: "version", intValue: nil), …)`.
enum DecodingProblem {
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing \(quoted(context.codingPath + [key]))"
    case .valueNotFound(_, let context):
      return "\(quoted(context.codingPath)) is null"
    case .typeMismatch(_, let context):
      return "\(quoted(context.codingPath)) has the wrong type"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not JSON" : "\(quoted(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }

  /// `"limits[0].until"`; `the file` for the top level.
  private static func quoted(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the file" }
    let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return "\"\(text.hasPrefix(".") ? String(text.dropFirst()) : text)\""
  }
}
