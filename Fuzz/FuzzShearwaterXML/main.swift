import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh shearwater-xml`): each input is read as Shearwater XML.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "shearwater-xml")!, suffix: "shearwater-xml") }
