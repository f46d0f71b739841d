import NIOCore

/// A kept connection: its channel, and the handler at the end of its pipeline, which only its
/// own loop may use.
struct Connection: Sendable {
  let channel: any Channel
  let handler: NIOLoopBound<ResponseHandler>
  /// When it went back to the pool.
  var idleSince = NIODeadline.now()
}
