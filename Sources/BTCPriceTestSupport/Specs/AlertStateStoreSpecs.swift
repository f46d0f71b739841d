import BTCPriceCore
import Foundation

/// The ``AlertStateStore`` contract (``StoreContractSpecs``) with its samples, for every
/// implementation's tests: every threshold rule's arming, by its key.
public enum AlertStateStoreSpecs {
  public static let sample: [String: AlertArming] = [
    "above:100000 USD": .fired, "below:90000.5 EUR": .armed,
  ]
  public static let newer: [String: AlertArming] = ["above:100000 USD": .armed]

  public static func contract(_ sut: some AlertStateStore) -> StoreContractSpecs<
    [String: AlertArming]
  > {
    StoreContractSpecs(load: sut.load, save: sut.save, empty: [:], sample: sample, newer: newer)
  }
}
