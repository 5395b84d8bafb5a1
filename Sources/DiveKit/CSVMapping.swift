import DiveJSON

/// A saved CSV mapping (`--mapping FILE.json`), as `umilog csv inspect --write-mapping` writes
/// it: what each column holds, and the date order.
///
/// ```json
/// {
///   "format": "umilog-csv-mapping",
///   "version": 1,
///   "date_order": "dmy",
///   "columns": { "Tiefe [m]": "max_depth:m", "Datum": "date", "7": "ignored" }
/// }
/// ```
/// A column is named by its header, or by its 1-based number in a headerless file; a value is
/// `field[#cylinder][:unit]` (`start_pressure#2:bar`). `schemas/csv-mapping.schema.json`
/// describes the document.
public struct CSVMapping: Sendable {
    /// The `format` member a mapping document carries.
    public static let formatName = "umilog-csv-mapping"
    /// Each mapped column's header (or 1-based number, headerless) and what it holds, in the document's order.
    public var columns: [(name: String, meaning: CSVColumnMeaning)]
    /// The date order the mapping fixes; `nil` when it leaves it to the file.
    public var dateOrder: DateOrder?

    /// Makes a mapping of these columns and this date order.
    public init(columns: [(name: String, meaning: CSVColumnMeaning)] = [], dateOrder: DateOrder? = nil) {
        self.columns = columns; self.dateOrder = dateOrder
    }

    /// Reads a mapping file; a document that is not one is an error that says where.
    public static func load(path: String) throws -> CSVMapping {
        let (doc, _) = try JSONParser.parse(file: path, displayName: path)
        func fail(_ message: String, _ node: JSONNode) -> DiveError {
            DiveError("csv.mapping-invalid", message, at: SourceLocation(file: path, line: node.line, column: node.column))
        }
        guard doc.isObject else { throw fail("a mapping is a JSON object", doc) }
        guard doc["format"]?.string == formatName else {
            throw fail("a mapping states \"format\": \"\(formatName)\"", doc["format"] ?? doc)
        }
        var mapping = CSVMapping()
        if let order = doc["date_order"] {
            guard let s = order.string, let o = DateOrder(rawValue: s), o != .ymd else { throw fail("\"date_order\" is \"dmy\" or \"mdy\"", order) }
            mapping.dateOrder = o
        }
        guard let columns = doc["columns"], columns.isObject else { throw fail("a mapping has a \"columns\" object", doc["columns"] ?? doc) }
        for m in columns.members {
            guard let text = m.value.string, let meaning = CSVColumnMeaning(mapping: text), meaning.unitFits else {
                throw fail("\"\(m.name)\": \(m.value.string.map { "\"\($0)\"" } ?? m.value.typeName) is not FIELD[#CYLINDER][:UNIT] (fields: \(CSVField.allCases.map(\.rawValue).joined(separator: ", ")))", m.value)
            }
            mapping.columns.append((m.name, meaning))
        }
        return mapping
    }

    /// The document, pretty-printed.
    public var json: String {
        let sink = MemorySink()
        var out = JSONEmitter(sink: sink)
        out.beginObject()
        out.key("format"); out.string(Self.formatName)
        out.key("version"); out.integer(1)
        if let d = dateOrder { out.key("date_order"); out.string(d.rawValue) }
        out.key("columns"); out.beginObject()
        for c in columns { out.key(c.name); out.string(c.meaning.description) }
        out.endObject()
        out.endObject()
        try? out.finish()
        return sink.text
    }
}

/// Reads one `--map 'Header=field[#cylinder][:unit]'` argument.
public func parseColumnMap(_ argument: String) throws -> (name: String, meaning: CSVColumnMeaning) {
    guard let eq = argument.lastIndex(of: "="), eq != argument.startIndex else {
        throw DiveError("usage.map", "--map takes 'COLUMN=FIELD[:UNIT]', e.g. --map 'Tiefe=max_depth:m'; got \"\(argument)\"", at: SourceLocation())
    }
    let name = String(argument[..<eq])
    guard let meaning = CSVColumnMeaning(mapping: String(argument[argument.index(after: eq)...])) else {
        throw DiveError("usage.map", "--map '\(argument)': \"\(argument[argument.index(after: eq)...])\" is not FIELD[#CYLINDER][:UNIT]; fields: \(CSVField.allCases.map(\.rawValue).joined(separator: ", ")); units: \(CSVUnit.allCases.map(\.rawValue).joined(separator: ", "))", at: SourceLocation())
    }
    guard meaning.unitFits else {
        throw DiveError("usage.map", "--map '\(argument)': \(meaning.unit!.rawValue) does not measure what \(meaning.field.rawValue) holds", at: SourceLocation())
    }
    return (name, meaning)
}

extension CSVReadOptions {
    /// The options `--date-order`, `--started-at`, `--map`, `--mapping` and `--strict` make;
    /// `--map` wins over the mapping file, flags over its date order.
    public static func from(dateOrder: DateOrder?, startedAt: String?, maps: [String], mappingFile: String?, strict: Bool) throws -> CSVReadOptions {
        var options = CSVReadOptions(strict: strict)
        if let file = mappingFile {
            let m = try CSVMapping.load(path: file)
            for c in m.columns { options.columns[c.name.folded] = c.meaning }
            options.dateOrder = m.dateOrder
        }
        for argument in maps {
            let (name, meaning) = try parseColumnMap(argument)
            options.columns[name.folded] = meaning
        }
        if let dateOrder { options.dateOrder = dateOrder }
        if let s = startedAt {
            guard let (start, _) = DiveDateTime.parse(s) else {
                throw DiveError("usage.started-at", "--started-at takes an ISO date and time such as 2024-05-01T10:12 or 2024-05-01T10:12:00+02:00; got \"\(s)\"", at: SourceLocation())
            }
            options.startedAt = start
        }
        return options
    }
}
