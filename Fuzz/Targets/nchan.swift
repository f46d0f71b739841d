// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceFeature BTCPriceNIO BTCPriceTerminal BTCPriceServer BTCPricePublish
import BTCPricePublish
import BTCPriceServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// nchan's answers as the publisher reads them: the channel's state that a publisher location
/// answers a `GET` or a publish with (`EdgeChannelInfo`, which a standby's `StandbyRule` and
/// `btc-price doctor`'s `EdgeProbe` read). The input's first line is the answer's status; the
/// rest is its body.
///
/// Properties: the newest message id read is the text of the body's top-level
/// `last_message_id` string, present once in a JSON document that names no member twice
/// anywhere, and not empty; nothing otherwise. The doctor's verdict names that id for a 2xx
/// answer, and says nothing of the body for any other.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (line, body) = splitCase(bytes(data, size)), let numbers = oracleCaseNumbers(line),
    numbers.count == 1, (100...999).contains(numbers[0])
  else { return 0 }
  let status = numbers[0]
  let id = EdgeChannelInfo.lastMessageID(in: Data(body))
  let expected = lastMessageID(in: body)
  guard id == expected else {
    violated("read the newest message id \(id ?? "nil"), but the body says \(expected ?? "nil")")
  }
  let verdict = EdgeProbe.verdict(status: status, body: Data(body))
  let plain = EdgeProbe.verdict(status: status, body: Data())
  if (200..<300).contains(status), let id {
    guard verdict == "takes publishes; newest message \(id)" else {
      violated("a 2xx answer with newest message \(id), but the verdict says \"\(verdict)\"")
    }
  } else if verdict != plain {
    violated("the body changed the verdict to \"\(verdict)\" from \"\(plain)\"")
  }
  return 0
}

/// The body's top-level `last_message_id`, by the oracle's own JSON reader.
func lastMessageID(in body: [UInt8]) -> String? {
  guard let json = OracleJSON.read(body), !json.repeatsAName,
    let id = json.member("last_message_id")?.string, !id.isEmpty
  else { return nil }
  return id
}
