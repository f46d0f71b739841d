// swift-tools-version: 6.2
import PackageDescription

// The mutation runner's self-test (`scripts/mutate --self-test`): a module with exactly six
// mutants, whose verdicts are known. `heating` is tested only far from its bound, so its `<` → `<=`
// survives; `cooling` is tested on its bound, so its `>` → `>=` is killed; the label's `+` → `-`
// on text does not compile and is discarded, not counted; `ventilating` is run only by a test
// that fails whenever the runner runs it again (as a timing test under load does), so its
// `!=` → `==` is flaky, not killed; `ThermostatDefaults.target`'s `20` → `21` and
// `20` → `19` are in a file no coverage report shows (constants only), so the runner tries them
// with the module's own tests, which kill both. `FailsOnceTests` fails its first coverage run:
// the runner must try it again and use it.
let package = Package(
  name: "Thermostat",
  targets: [
    .target(name: "Thermostat"),
    .testTarget(name: "ThermostatTests", dependencies: ["Thermostat"]),
  ]
)
