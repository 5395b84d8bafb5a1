import DiveCore

/// A channel the model has no member for, as the profile's `umilog` extension carries it
/// (`docs/umilog-extension.md`): its name, the sensor it belongs to, its unit and its readings.
struct ExtraSeries {
    var name: String
    var ref: String?
    var unit: String
    var times: [Int] = []
    var values: [Double] = []
}

extension DiveBuilder {
    /// A `time,code,value` row: the code says which channel the value is, or which event
    /// happened; a code not carried is counted, and said once at the end of the file.
    mutating func coded(_ r: CSVRow, codes: [Int: PresetCode], at t: Int?) throws {
        guard let t, r.count >= 3, reader.layout.columns.count >= 3, let code = Int(r.string(1).trimmingWhitespace()) else { return }
        let column = reader.layout.columns[2]
        guard let known = codes[code] else {
            reader.tallyCode(code, nil)
            return
        }
        if case .notCarried(let what) = known.target {
            reader.tallyCode(code, what)
            return
        }
        let text = r.string(2)
        guard let v = CSVValues.number(Substring(text), decimalMark: reader.layout.dialect.decimalMark) else {
            try reader.bad(text, column: column, expected: "a number", row: r.row, line: r.line)
            return
        }
        readings += 1
        switch known.target {
        case .reading(let m) where m.field == .ndl || m.field == .tts:
            _ = try plainSample(m, v * known.factor, at: t, column: column)
        case .reading(let m):
            try record(m, v * known.factor, cellUnit: nil, at: t, column: column, text: text)
        case .extra(let name, let unit):
            let value = Self.clean(v * known.factor)
            guard CSVLimits.Range.ratio.contains(value) else {
                try reader.outOfRange(text, value, .ratio, column: column, row: r.row, line: r.line)
                return
            }
            extra(name, ref: nil, unit: unit, t, value)
        case .event(let type, let label, let byValue):
            let n = v == v.rounded() && abs(v) < 1e9 ? Int(v) : nil
            profile.events.append(Event(time: t, type: type, label: n.flatMap { byValue[$0] } ?? label))
        case .notCarried:
            break
        }
    }

    /// A row of an event-log table (§10.13): the channel its channel column names, read from its
    /// value column (with the unit its unit column gives) at the row's time.
    mutating func logged(_ r: CSVRow, _ log: CSVEventLog, at t: Int?) throws {
        guard let t, log.channel < r.count, log.value < r.count, !r.isBlank(log.channel), !r.isBlank(log.value) else { return }
        guard let channel = reader.eventLogChannel(r.string(log.channel)) else { return }
        var text = r.string(log.value)
        if let u = log.unit, u < r.count, !r.isBlank(u) { text += " " + r.string(u).trimmingWhitespace() }
        readings += 1
        try sample(channel.meaning, text, at: t, column: channel.column, row: r.row, line: r.line)
    }

    /// Appends a reading of an extra channel (in `unit`), the first at each time kept.
    mutating func extra(_ name: String, ref: String?, unit: String, _ t: Int, _ value: Double) {
        let key = ref.map { "\(name)|\($0)" } ?? name
        let k: Int
        if let place = extraPlaces[key] { k = place } else {
            k = extraChannels.count
            extraPlaces[key] = k
            extraChannels.append(ExtraSeries(name: name, ref: ref, unit: unit))
        }
        if extraChannels[k].times.last == t { repeated += 1; return }
        extraChannels[k].times.append(t)
        extraChannels[k].values.append(Self.clean(value))
    }

    /// The profile's `umilog` extension holding the extra channels, if any were read.
    func extraChannelsExtension() -> ExtensionValue? {
        guard !extraChannels.isEmpty else { return nil }
        let channels: [ExtensionValue] = extraChannels.map { c in
            var members: [ExtensionValue.Member] = [.init("name", .string(c.name))]
            if let ref = c.ref { members.append(.init("ref", .string(ref))) }
            members.append(.init("unit", .string(c.unit)))
            members.append(.init("times", .array(c.times.map { .number(String($0)) })))
            members.append(.init("values", .array(c.values.map { .number(DecimalNumber($0)?.description ?? CSVQuantity.format($0)) })))
            return .object(members)
        }
        return .object([.init("umilog", .object([.init("channels", .array(channels))]))])
    }

    /// What a Poseidon log's companion gives its cylinders: the oxygen cylinder first, the
    /// diluent second (the order of its pressure codes 13 and 14, and of Subsurface's).
    static func apply(_ companion: CSVCompanion, to cylinders: inout [Int: Cylinder]) {
        var oxygen = cylinders[1] ?? Cylinder(), diluent = cylinders[2] ?? Cylinder()
        oxygen.role = .oxygen
        diluent.role = .diluent
        if let p = companion.oxygenStartPressure { oxygen.startPressure = p }
        if let p = companion.diluentStartPressure { diluent.startPressure = p }
        if let o2 = companion.diluentOxygen {
            diluent.oxygen = o2
            diluent.helium = companion.diluentHelium
        }
        cylinders[1] = oxygen
        cylinders[2] = diluent
    }

    /// What a Poseidon log's companion gives its device: the rig's serial number.
    static func apply(_ companion: CSVCompanion, to device: inout Device) {
        device.brand = "Poseidon"
        device.model = "MkVI Discovery"
        if let serial = companion.serial { device.serial = serial }
    }
}
