@_exported import DiveCore
@_exported import DiveCSV
import DiveUDDF

/// The formats umilog knows by name.
public enum FileFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case uddf
    case csv
    case csvProfile = "csv-profile"
    case json

    public var description: String { rawValue }

    /// Formats `convert` can read today.
    public static let readable: [FileFormat] = [.uddf]
    /// Formats `convert` can write today.
    public static let writable: [FileFormat] = [.csv, .csvProfile]
}

/// Opens a streaming reader for `path` in `format`.
public func openReader(path: String, format: FileFormat, displayName: String? = nil) throws -> any DiveSource {
    switch format {
    case .uddf:
        return try UDDFReader(path: path, displayName: displayName)
    default:
        throw DiveError("format.unsupported-input", "reading \(format) is not supported yet (supported: \(FileFormat.readable.map(\.rawValue).joined(separator: ", ")))",
                        at: SourceLocation(file: displayName ?? path))
    }
}
