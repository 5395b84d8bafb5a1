import DiveCore

/// What the logbook knows about its records beyond what DiveJSON defines — where each dive came
/// from, what backfill decided, the diver's lists — carried in a DiveJSON export under the
/// producer key `umilog` (DiveJSON §5.5), so that `export --to json` is a backup that
/// `import` restores. The members are listed in `docs/umilog-extension.md`:
///
/// - the document: `source_files`, the files the dives came from;
/// - a dive: `status` (backfill's) and `sources` (file, record index, id, line);
/// - a recording: `source_file`, the SHA-256 of the file it came from;
/// - a site: `kind` (`user` for one made from a dive's position), `canonical_site_uuid` and
///   `list_state`;
/// - a species: `kind` (`catalog` for one of the seed catalog's);
/// - a sighting: `logged_species_uuid`, the species as the log named it before backfill
///   resolved it.
///
/// Only those members are the logbook's state. Any other member of a `umilog` entry is data a
/// reader carried (a dive's `surface_interval`, a recording's `highest_ppo2`): it stays in the
/// record's extensions, is stored with it and comes back on export, before the state members.
enum LogbookState {
    static let key = "umilog"

    /// The kinds of record whose stored `detail` could keep logbook state, each with the members
    /// that are state (the document's `source_files` is read from its header, never stored).
    enum Holder {
        case dive, recording, site, species, sighting

        /// The members of this record's `umilog` entry that are the logbook's state.
        var stateMembers: Set<String> {
            switch self {
            case .dive: ["status", "sources"]
            case .recording: ["source_file"]
            case .site: ["kind", "canonical_site_uuid", "list_state"]
            case .species: ["kind"]
            case .sighting: ["logged_species_uuid"]
            }
        }
    }

    /// Takes the state members of `holder` out of the `umilog` entry of `extensions` and returns
    /// them by name (empty when there are none). The entry's other members stay where they are;
    /// the entry goes when nothing is left in it, and `extensions` becomes nil when nothing else
    /// is in it.
    static func take(_ extensions: inout ExtensionValue?, of holder: Holder) -> [String: ExtensionValue] {
        guard case .object(var entries)? = extensions, let k = entries.firstIndex(where: { $0.name == key }),
              case .object(let members) = entries[k].value else { return [:] }
        let names = holder.stateMembers
        var state: [String: ExtensionValue] = [:]
        for m in members where names.contains(m.name) && state[m.name] == nil { state[m.name] = m.value }
        guard !state.isEmpty else { return [:] }
        let data = members.filter { !names.contains($0.name) }
        if data.isEmpty { entries.remove(at: k) } else { entries[k].value = .object(data) }
        extensions = entries.isEmpty ? nil : .object(entries)
        return state
    }

    /// The members of the `umilog` entry of `extensions` by name (the first of a name), left
    /// where they are; empty when there is none.
    static func members(of extensions: ExtensionValue?) -> [String: ExtensionValue] {
        guard case .object(let members)? = extensions?[key] else { return [:] }
        var out: [String: ExtensionValue] = [:]
        for m in members where out[m.name] == nil { out[m.name] = m.value }
        return out
    }

    /// `extensions` with `members` (the exporter's state) in its `umilog` entry: after the
    /// members the entry already holds (data a reader carried, in their order), each replacing
    /// one of its name. An entry that is not an object gives way to them. Unchanged when
    /// `members` is empty.
    static func adding(_ members: [ExtensionValue.Member], to extensions: ExtensionValue?) -> ExtensionValue? {
        guard !members.isEmpty else { return extensions }
        guard case .object(var entries)? = extensions else { return .object([ExtensionValue.Member(key, .object(members))]) }
        let names = Set(members.map(\.name))
        guard let k = entries.firstIndex(where: { $0.name == key }) else {
            entries.append(ExtensionValue.Member(key, .object(members)))
            return .object(entries)
        }
        var data: [ExtensionValue.Member] = []
        if case .object(let held) = entries[k].value { data = held.filter { !names.contains($0.name) } }
        entries[k].value = .object(data + members)
        return .object(entries)
    }

    /// A file a dive or recording came from, as the document lists it.
    struct SourceFile: Hashable {
        var sha256: String
        var name: String
        var format: String
        var generator: String?
        var generatorVersion: String?
        var size: Int
        /// How many dive records the file holds (nil: not known).
        var records: Int?

        var value: ExtensionValue {
            var m: [ExtensionValue.Member] = [.init("sha256", .string(sha256)), .init("name", .string(name)), .init("format", .string(format))]
            if let generator { m.append(.init("generator", .string(generator))) }
            if let generatorVersion { m.append(.init("generator_version", .string(generatorVersion))) }
            m.append(.init("size", .number(String(size))))
            if let records { m.append(.init("records", .number(String(records)))) }
            return .object(m)
        }

        init(sha256: String, name: String, format: String, generator: String?, generatorVersion: String?, size: Int, records: Int?) {
            self.sha256 = sha256; self.name = name; self.format = format
            self.generator = generator; self.generatorVersion = generatorVersion; self.size = size; self.records = records
        }

        init?(_ v: ExtensionValue) {
            guard let sha = v["sha256"]?.string, !sha.isEmpty, let name = v["name"]?.string, let format = v["format"]?.string,
                  let size = v["size"]?.int, size >= 0 else { return nil }
            self.init(sha256: sha, name: name, format: format, generator: v["generator"]?.string,
                      generatorVersion: v["generator_version"]?.string, size: size, records: v["records"]?.int.flatMap { $0 >= 0 ? $0 : nil })
        }
    }

    /// One source of a dive: record `index` of the file with digest `sha256`.
    struct DiveSourceRecord: Hashable {
        var sha256: String
        var index: Int
        var recordID: String?
        var line: Int?
        var sourceUUID: String?

        var value: ExtensionValue {
            var m: [ExtensionValue.Member] = [.init("source_file", .string(sha256)), .init("record_index", .number(String(index)))]
            if let recordID { m.append(.init("record_id", .string(recordID))) }
            if let line { m.append(.init("line", .number(String(line)))) }
            if let sourceUUID { m.append(.init("source_uuid", .string(sourceUUID))) }
            return .object(m)
        }

        init(sha256: String, index: Int, recordID: String?, line: Int?, sourceUUID: String?) {
            self.sha256 = sha256; self.index = index; self.recordID = recordID; self.line = line; self.sourceUUID = sourceUUID
        }

        init?(_ v: ExtensionValue) {
            guard let sha = v["source_file"]?.string, let index = v["record_index"]?.int, index >= 0 else { return nil }
            self.init(sha256: sha, index: index, recordID: v["record_id"]?.string, line: v["line"]?.int, sourceUUID: v["source_uuid"]?.string)
        }
    }

    static let statuses: Set<String> = ["new", "matched", "unmatched", "pending"]
    static let listStates: Set<String> = ["visited", "wishlist", "planned"]
}

extension ExtensionValue {
    /// The member `name` of an object.
    subscript(name: String) -> ExtensionValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The number as an integer when it is one (`3`, `3.0`, `3e0`), as ``DecimalNumber/exactInteger(_:)`` reads it.
    var int: Int? { if case .number(let n) = self { DecimalNumber.exactInteger(n) } else { nil } }
    var elements: [ExtensionValue] { if case .array(let a) = self { a } else { [] } }
}
