import DiveJSON

/// What validating one file found.
public struct FileValidation: Sendable {
    public var path: String
    public var format: FileFormat?
    public var issues: [ValidationIssue] = []
    /// The file could not be read as its format at all (not JSON, not found…).
    public var error: DiveError?
}

/// Validates one dive-log file. DiveJSON documents get the schema and the spec's §3 rules.
public func validate(path: String) -> FileValidation {
    var result = FileValidation(path: path)
    do {
        let format = try detectFormat(path: path)
        result.format = format
        switch format {
        case .json:
            result.issues = try DiveJSONValidator().validate(path: path)
        default:
            result.error = DiveError("validate.unsupported", "validating \(format) files is not supported yet (DiveJSON is)", at: SourceLocation(file: path))
        }
    } catch let e as DiveError {
        result.error = e
    } catch {
        result.error = DiveError("io.read", "\(error)", at: SourceLocation(file: path))
    }
    return result
}
