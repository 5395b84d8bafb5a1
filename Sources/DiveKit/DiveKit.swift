@_exported import DiveCore
#if canImport(Glibc)
import Glibc
#endif
@_exported import DiveCSV
@_exported import enum DiveUDDF.DateOnlyStart
import DiveJSON
import DiveUDDF

/// Opens a streaming reader for `path` in `format` (see ``FormatRegistry``).
public func openReader(path: String, format: FileFormat, displayName: String? = nil,
                       csv: CSVReadOptions = CSVReadOptions()) throws -> any DiveSource {
    let name = displayName ?? (path == "-" ? "<stdin>" : path)
    guard let open = format.entry.open else {
        throw DiveError("format.unsupported-input", "umilog does not read \(format.entry.name) yet", at: SourceLocation(file: name))
    }
    return try open(path, name, ReadOptions(csv: csv))
}

/// This program, as the `generator` of documents it writes.
public let umilogGenerator = Generator(name: "umilog", version: "0.1.0")

/// The export instant for a document written now, with the machine's UTC offset
/// (`SOURCE_DATE_EPOCH`, when set, fixes the instant for reproducible output, in UTC).
public func exportTimestamp() -> String {
    var seconds = time(nil)
    var offset = 0
    if let fixed = getenv("SOURCE_DATE_EPOCH").flatMap({ Int(String(cString: $0)) }) {
        seconds = time_t(fixed)
    } else {
        var local = tm()
        localtime_r(&seconds, &local)
        offset = Int(local.tm_gmtoff)
    }
    var t = seconds + time_t(offset)
    var utc = tm()
    gmtime_r(&t, &utc)
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let sign = offset < 0 ? "-" : "+"
    let o = abs(offset) / 60
    let zone = "\(sign)\(two(Int32(o / 60))):\(two(Int32(o % 60)))"
    return "\(utc.tm_year + 1900)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))T\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec))\(zone)"
}
