#if canImport(SwiftUI)
  import BTCPriceFeature
  import SwiftUI

  /// The price screen. It only binds to ``PriceViewModel``: every text, and whether the banner
  /// shows, is decided there (and tested on Linux), because this file cannot be compiled here.
  public struct PriceView: View {
    private let model: PriceViewModel

    public init(model: PriceViewModel) {
      self.model = model
    }

    public var body: some View {
      VStack(spacing: 16) {
        VStack(spacing: 8) {
          Text(verbatim: model.priceText)
            .font(.largeTitle)
            .fontWeight(.semibold)
            .monospacedDigit()
            .lineLimit(1)
            .minimumScaleFactor(0.5)
          Text(verbatim: model.lastUpdatedText)
            .font(.subheadline)
            .foregroundStyle(.secondary)
          if let source = model.sourceName {
            Text(verbatim: source)
              .font(.caption)
              .foregroundStyle(.secondary)
          }
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(Text(verbatim: model.accessibilityLabel))
        .accessibilityAddTraits(.updatesFrequently)

        if let banner = model.bannerText {
          Text(verbatim: banner)
            .font(.callout)
            .multilineTextAlignment(.center)
            .padding()
            .background(Color.yellow.opacity(0.25), in: RoundedRectangle(cornerRadius: 12))
        }
      }
      .padding()
    }
  }
#endif
