/// The thermostat's defaults: constants only, so no line of this file shows in a coverage
/// report. The runner tries its mutants with the module's own tests.
public enum ThermostatDefaults {
  public static let target = 20
}
