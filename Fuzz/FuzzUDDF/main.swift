import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh uddf`): each input is read as UDDF.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: .uddf, suffix: "uddf") }
