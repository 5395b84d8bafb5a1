import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh suunto-dm3`): each input is read as Suunto DM3 .SDE.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "suunto-dm3")!, suffix: "suunto-dm3") }
