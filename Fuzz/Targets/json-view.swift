// fuzz-modules: BTCPriceRuntime BTCPriceCore
import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The stream messages' lazy reader (`JSONObjectView`: it checks the whole text but builds only
/// the members asked for) against the full reader, on text as a WebSocket frame becomes text
/// (`String(strictUTF8:)`).
///
/// Properties: the view accepts exactly the texts the full reader reads as an object; every
/// member it answers for is the full reader's, and a name the object lacks is nil.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  guard let text = String(strictUTF8: input) else { return 0 }
  let view = try? JSONObjectView(text)
  let full = try? JSONValue.parse(Data(text.utf8))
  switch (view, full) {
  case (let view?, .object(let members)?):
    for (name, value) in members where view[name] != value {
      violated("the view reads \(name) as \(String(describing: view[name])), not \(value)")
    }
    let absent = "\u{1}absent"
    if members[absent] == nil, let value = view[absent] {
      violated("the view invents a member \(value)")
    }
  case (nil, .object?):
    violated("the view refuses an object the full reader reads")
  case (let view?, _):
    violated("the view accepts a text the full reader does not read as an object: \(view)")
  case (nil, _): break
  }
  return 0
}
