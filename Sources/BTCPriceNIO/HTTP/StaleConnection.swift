/// A pooled connection closed before anything of the answer arrived.
struct StaleConnection: Error {}
