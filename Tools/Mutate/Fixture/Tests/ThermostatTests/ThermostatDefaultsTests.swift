import Testing
import Thermostat

@Suite struct ThermostatDefaultsTests {
  @Test func theDefaultTarget_isTwenty() {
    #expect(ThermostatDefaults.target == 20)
  }
}
