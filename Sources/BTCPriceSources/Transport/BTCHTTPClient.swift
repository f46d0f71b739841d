#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The transport the remote loaders need: one GET, a bounded body, nothing else.
///
/// Adapters (SwiftNIO for the CLI, URLSession for Apple apps) must:
/// - deliver any status with its body; a status is not an error at this level;
/// - stop reading and throw ``BTCHTTPClientError/bodyTooLarge(limit:)`` past `maxBodySize`;
/// - map transport failures to ``BTCHTTPClientError``;
/// - honour task cancellation promptly (deadlines are enforced by cancelling the task);
/// - reuse connections between calls.
public protocol BTCHTTPClient: Sendable {
  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse
}
