import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh suunto-json`): each input is read as Suunto app JSON.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "suunto-json")!, suffix: "suunto-json") }
