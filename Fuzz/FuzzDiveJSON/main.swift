import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh divejson`): each input is read as DiveJSON.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: .json, suffix: "divejson") }
