import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh zip`): each input is read as a zip of dive logs.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "zip")!, suffix: "zip") }
