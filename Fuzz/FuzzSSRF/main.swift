import DiveKit
import FuzzSupport

// libFuzzer drives this target (`scripts/fuzz.sh ssrf`): each input is read as Subsurface XML.
FuzzInput.drive { data, size in FuzzInput.run(data, size, format: FileFormat(rawValue: "ssrf")!, suffix: "ssrf") }
