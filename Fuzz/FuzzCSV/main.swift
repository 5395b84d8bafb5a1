import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh csv`): each input is read as CSV.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: .csv, suffix: "csv") }
