import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh fit`): each input is read as Garmin FIT.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "fit")!, suffix: "fit") }
