#if canImport(SwiftUI)
  import BTCPriceFeature
  import SwiftUI

  /// The price screen. It only binds to ``PriceViewModel``: every text, and whether the banner
  /// shows, is decided there (and tested on Linux), because this file cannot be compiled here.
  ///
  /// At the largest accessibility text sizes, and in landscape, the texts can be taller than the
  /// screen: the content then scrolls, so every text stays reachable. When it fits, it sits
  /// centred and does not bounce.
  public struct PriceView: View {
    private let model: PriceViewModel

    public init(model: PriceViewModel) {
      self.model = model
    }

    public var body: some View {
      GeometryReader { screen in
        ScrollView(.vertical) {
          content
            .padding()
            .frame(maxWidth: .infinity, minHeight: screen.size.height)
        }
        .scrollBounceBehavior(.basedOnSize)
      }
    }

    private var content: some View {
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
        .multilineTextAlignment(.center)
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
    }
  }
#endif
