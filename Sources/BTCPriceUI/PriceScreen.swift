#if canImport(SwiftUI)
  import BTCPriceFeature
  import SwiftUI

  /// ``PriceView`` tied to the lifecycle: `.task` runs the view model while the screen exists
  /// (SwiftUI cancels it when the screen goes away), and every scene phase change, including the
  /// one the screen starts in, goes to the view model's single entry point.
  public struct PriceScreen: View {
    @Environment(\.scenePhase) private var scenePhase
    private let model: PriceViewModel

    public init(model: PriceViewModel) {
      self.model = model
    }

    public var body: some View {
      PriceView(model: model)
        .task { [model] in await model.run() }
        .onChange(of: scenePhase, initial: true) { _, phase in
          model.phaseDidChange(to: AppPhase(phase))
        }
    }
  }
#endif
