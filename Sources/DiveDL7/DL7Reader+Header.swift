import DiveCore

/// The segments outside the dives: `FSH` (the file), `ZRH` (the recording device and the
/// units), `ZPD`/`ZPA` (the diver, in a `.zxl`) and `ZAR{…}` (the writer's own block).
extension DL7Reader {
    static let fshNames = ["encoding characters", "sending application", "message type", "file creation date/time"]
    static let zrhNames = ["encoding characters", "recording dive computer", "dive computer serial number", "depth/pressure unit",
                           "altitude unit", "temperature unit", "tank pressure unit", "tank volume unit"]
    static let zpdNames = ["external (PDE) diver id", "internal diver id", "diving licence", "DAN member number", "diver name",
                           "diver alias", "mother's maiden name", "date of birth", "birth place", "sex", "weight", "height",
                           "year of first certification", "certification level", "dives in the past 12 months",
                           "dives in the past 5 years", "medical conditions", "medications", "smoking"]
    static let zpaNames = ["address", "home phone", "business phone", "email address", "primary language", "citizenship"]

    /// `FSH|^~<>{}|app^id^type|ZXU|20160420083103|`: the separators, the sending application
    /// and when the file was made.
    func readFSH(_ line: (start: Int, end: Int)) {
        let b = file.bytes
        separator = b[line.start + 3]
        segment.split(line: lineNumber, start: line.start, end: line.end, separator: separator)
        sawFileHeader = true
        var read: Set<Int> = [1, 3]
        let encoding = segment.raw(1)
        if let first = encoding.first, DL7.isSeparator(first), first != separator { componentSeparator = first }
        let app = segment.components(2, separator: componentSeparator)
        if let name = app.first ?? nil {
            var generator = Generator(name: name)
            if let ts = segment.text(4) {
                read.insert(4)
                if let stamp = DL7Timestamp(ts) { generator.writtenAt = stamp.iso } else {
                    report(.dropped, "timestamp-invalid", "FSH's file creation time \"\(ts)\" is not a DL7 time stamp (YYYYMMDDHHMMSS); not carried",
                           field: 4, path: "FSH")
                }
            }
            header.sourceGenerator = generator
            read.insert(2)
            if app.dropFirst().contains(where: { $0 != nil }) {
                report(.dropped, "sender-id-not-carried",
                       "FSH's sending application \"\(segment.text(2)!)\" names the program (\(name)) and then an id of the user's copy or computer, which is not carried",
                       field: 2, path: "FSH")
            }
        } else if let ts = segment.text(4) {
            // A creation time without a program to hang it on.
            report(.dropped, "not-carried", "FSH's file creation time \"\(ts)\" belongs to a sending application the file does not name; not carried",
                   field: 4, path: "FSH")
            read.insert(4)
        }
        if let type = segment.text(3)?.uppercased(), type != "ZXU", type != "ZXL" {
            report(.resolved, "message-type-unknown", "FSH's message type \"\(type)\" is neither ZXU nor ZXL; the file is read as DL7 segments all the same",
                   field: 3, path: "FSH")
        }
        reportRest("FSH", read: read, names: Self.fshNames, path: "")
    }

    /// `ZRH|^~<>{}|model|serial|MSWG|ThM|C|bar|L|`: the recording dive computer and the units
    /// every value after it is written in.
    func readZRH() {
        if sawRecordHeader {
            report(.resolved, "record-header-repeated", "a second ZRH segment; its device and units apply from here on",
                   line: segment.line, column: 1, path: "ZRH")
        }
        sawRecordHeader = true
        var read: Set<Int> = [1]
        device = Device()
        if let code = segment.text(2) {
            device.model = code
            if code.count >= 3, let brand = DL7Computers.brands[String(code.prefix(3)).uppercased()] { device.brand = brand }
            read.insert(2)
        }
        if let serial = segment.text(3) { device.serial = serial; read.insert(3) }
        units = DL7Units()
        func declared<U: Equatable>(_ k: Int, _ what: String, _ parse: (String) -> U?) -> DL7Declared<U> {
            guard let code = segment.text(k) else { return .undeclared }
            read.insert(k)
            if let u = parse(code) { return .unit(u, code: code) }
            report(.dropped, "unit-unknown", "ZRH's \(what) unit \"\(code)\" is no code this reader knows; \(what) values are not carried",
                   field: k, path: "ZRH")
            return .unknown(code: code)
        }
        if let code = segment.text(4) {
            read.insert(4)
            if let (unit, water) = DL7DepthUnit.parse(code) {
                units.depth = .unit(unit, code: code)
                units.salinity = water
            } else {
                units.depth = .unknown(code: code)
                report(.dropped, "unit-unknown",
                       "ZRH's depth unit \"\(code)\" is not one of MSWG, MFWG, FSWG or FFWG (a depth as a pressure needs a surface pressure DL7 does not record); depths are not carried",
                       field: 4, path: "ZRH")
            }
        }
        units.altitude = declared(5, "altitude", DL7AltitudeUnit.parse)
        units.temperature = declared(6, "temperature", DL7TemperatureUnit.parse)
        units.pressure = declared(7, "tank pressure", DL7PressureUnit.parse)
        units.volume = declared(8, "tank volume", DL7VolumeUnit.parse)
        reportRest("ZRH", read: read, names: Self.zrhNames, path: "")
    }

    /// `ZPD`: who the diver is. The name, the date of birth and the internal id (the diver's
    /// identity) are carried; the rest (licence, sex, weight, medical history…) is reported.
    func readZPD() {
        var read: Set<Int> = []
        var diver = header.diver ?? Diver()
        if let id = segment.text(2) {
            diver.uuid = Identity.uuid(kind: "diver", sourceID: id, namespace: DL7.namespace)
            read.insert(2)
        }
        let name = segment.components(5, separator: componentSeparator)
        if !name.isEmpty {
            // family ^ given ^ middle ^ suffix ^ prefix ^ degree: written as a diver reads it.
            let parts = [name.count > 4 ? name[4] : nil, name.count > 1 ? name[1] : nil, name.count > 2 ? name[2] : nil,
                         name[0], name.count > 3 ? name[3] : nil].compactMap { $0 }
            if !parts.isEmpty {
                diver.name = parts.joined(separator: " ")
                read.insert(5)
                if name.count > 5, let degree = name[5] {
                    report(.dropped, "not-carried", "ZPD's diver name gives the degree \"\(degree)\", which the model has no place for; not carried",
                           field: 5, path: "ZPD")
                }
            }
        }
        if let dob = segment.text(8) {
            read.insert(8)
            if let stamp = DL7Timestamp(dob), stamp.time == nil { diver.bornOn = stamp.date } else {
                report(.dropped, "date-invalid", "ZPD's date of birth \"\(dob)\" is not a YYYYMMDD date; not carried", field: 8, path: "ZPD")
            }
        }
        if diver != Diver() { header.diver = diver }
        reportRest("ZPD", read: read, names: Self.zpdNames, path: "")
    }

    /// `ZPA`: the diver's address and contacts. The home phone and the email address are
    /// carried; the postal address, the business phone, the language and the citizenship are
    /// reported.
    func readZPA() {
        var read: Set<Int> = []
        var diver = header.diver ?? Diver()
        let phone = segment.components(2, separator: componentSeparator)
        if phone.contains(where: { $0 != nil }) {
            // country ^ area ^ number ^ extension ^ text
            var parts: [String] = []
            if let cc = phone[0] { parts.append(cc.hasPrefix("+") ? cc : "+" + cc) }
            for k in 1..<min(phone.count, 3) { if let p = phone[k] { parts.append(p) } }
            if phone.count > 3, let ext = phone[3] { parts.append("ext. " + ext) }
            if phone.count > 4, let t = phone[4] { parts.append(t) }
            diver.phone = parts.joined(separator: " ")
            read.insert(2)
        }
        if let email = segment.text(4) {
            read.insert(4)
            if TextForms.isEmailAddress(email) { diver.email = email } else {
                report(.dropped, "email-invalid", "ZPA's email address \"\(email)\" is not one (local@domain); not carried", field: 4, path: "ZPA")
            }
        }
        if diver != Diver() { header.diver = diver }
        reportRest("ZPA", read: read, names: Self.zpaNames, path: "")
    }

    // MARK: ZAR{…}

    /// `ZAR{…}` is the sending application's own: free text or a vendor's markup, on one line
    /// or many, up to the closing brace. umilog reads none of it: a non-empty block is reported
    /// with its first characters and its size.
    func openVendorBlock(_ line: (start: Int, end: Int)) {
        block = ("ZAR", lineNumber, 0, [])
        continueVendorBlock((line.start + 4, line.end))
    }

    func continueVendorBlock(_ line: (start: Int, end: Int), reporting: Bool = true) {
        guard var open = block else { return }
        let b = file.bytes
        var end = line.end
        while end > line.start, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
        let closes = end > line.start && b[end - 1] == UInt8(ascii: "}")
        if closes { end -= 1 }
        let count = max(0, end - line.start)
        if open.bytes > 0 && count > 0 { open.bytes += 1 }
        open.bytes += count
        if open.head.count < 60, count > 0 {
            if !open.head.isEmpty { open.head.append(0x20) }
            open.head += b[line.start..<(line.start + min(count, 60 - open.head.count))]
        }
        block = open
        if closes { finishVendorBlock(reporting: reporting) }
    }

    func finishVendorBlock(reporting: Bool = true) {
        guard let open = block else { return }
        block = nil
        unknownBlockName = nil
        guard reporting, open.bytes > 0 else { return }
        let head = DL7Segment.string(open.head.withUnsafeBytes { $0 }).trimmingWhitespace()
        let more = open.bytes > open.head.count ? "…" : ""
        report(.dropped, "vendor-block-not-carried",
               "ZAR{\(head)\(more)} (\(open.bytes) characters) is the sending application's own block, which DL7 leaves to it; not carried",
               line: open.line, column: 1, path: draftPath.map { "\($0)/ZAR" } ?? "ZAR")
    }
}
