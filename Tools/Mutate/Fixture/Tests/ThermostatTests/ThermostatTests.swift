import Testing
import Thermostat

@Suite struct ThermostatTests {
  let thermostat = Thermostat(target: 20)

  // Far from the bound only: a heater that also runs at 20 goes unnoticed.
  @Test func heating_belowTheTarget() {
    #expect(thermostat.heating(at: 10))
    #expect(!thermostat.heating(at: 30))
  }

  @Test func cooling_aboveTheTargetButNotAtIt() {
    #expect(thermostat.cooling(at: 21))
    #expect(!thermostat.cooling(at: 20))
  }

  @Test func label_endsInDegrees() {
    #expect(thermostat.label(for: 20) == "20°")
  }
}
