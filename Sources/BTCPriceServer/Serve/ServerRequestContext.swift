import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the connection, so that a stream viewer who falls behind can
/// be disconnected from outside its own task.
public struct ServerRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
