import DiveCore
import DiveXML

/// Streams a UDDF file (2.x to 3.3, with or without its namespace, in any letter case) one
/// dive at a time over libxml2's SAX2 push parser. It never builds a DOM: memory holds the
/// logbook header and the dive being read, whatever the file's size.
///
/// Values come out in the canonical model's units; writers' habits are read by the rules in
/// DiveJSON's `docs/uddf-mapping.md`, and every value that cannot be carried, or whose
/// reading had to be decided, is reported as a ``Finding``.
public final class UDDFReader: XMLDiveReader {
    /// Opens the UDDF file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: UDDFState(file: name))
    }
}

/// The SAX state machine: a stack of open tags, the record being read, and the logbook
/// header built so far.
final class UDDFState: XMLEventHandler, XMLDiveState {
    let file: String
    /// The parser feeding this state; it is owned by the same reader and outlives every callback.
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0

    @exclusivity(unchecked) private var tags = NameTable { (Tag.byName[$0] ?? .other).rawValue }
    @exclusivity(unchecked) private(set) var stack: [Tag] = []
    @exclusivity(unchecked) private(set) var text: [UInt8] = []
    @exclusivity(unchecked) private var capturing = false
    /// The element being read holds more text than ``InputLimits/textBytes``: what is past the
    /// limit was never kept, and its text is reported rather than read.
    @exclusivity(unchecked) private(set) var textTooLong = false
    /// Elements whose text was too long, by path, for one finding each per dive or file.
    private var sawRoot = false

    /// What became of each open element (UDDFReader+Accounting.swift).
    let accountant: XMLAccountant
    /// The same object, for the per-event calls, through a guaranteed reference: no retain
    /// and release around each call (a strong reference cost them: 10 % of a conversion).
    let accounts: Unmanaged<XMLAccountant>
    /// ``InputLimits/samplesPerDive``, lowered by tests.
    var samplesPerDive = InputLimits.samplesPerDive

    // Header records.
    var generatorName: String?
    var generatorVersion: String?
    var generatorManufacturerID: String?
    var generatorType: String?
    var generatorWrittenAt: String?
    var generatorManufacturer: String?
    var mixes: [String: MixDraft] = [:]
    var decoModels: [String: DecoDraft] = [:]
    /// Every id defined outside the dives, with the element that defined it.
    var definedIDs: [String: Tag] = [:]
    /// Ids of records that were read but could not be carried (a nameless site, say).
    var droppedIDs: Set<String> = []
    /// uuid of each carried record by its source id.
    var siteUUIDs: [String: String] = [:]
    var personUUIDs: [String: String] = [:]
    var studentIDs: Set<String> = []
    var guideBuddy: [String: String] = [:]
    var gearUUIDs: [String: String] = [:]
    var gearVolumes: [String: DecimalNumber] = [:]
    var computers: [String: Device] = [:]
    var tripUUIDs: [String: String] = [:]

    private var siteIndex = 0, buddyIndex = 0, gearIndex = 0, tripIndex = 0, diveIndex = 0
    private var site: SiteDraft?
    private var person: PersonDraft?
    private var isOwner = false
    private var gear: GearDraft?
    private var trip: TripDraft?
    private var tripPart: TripPartDraft?
    private var mix: MixDraft?
    private var deco: DecoDraft?
    private var guideID: String?
    /// The contact shape being read, and the stack depth of its element.
    private var contact: ContactDraft?
    private var contactDepth = 0
    var baseDrafts: [ContactDraft] = []
    var shopDrafts: [ContactDraft] = []
    /// Trip parts' stays, with the trip (index in `header.trips`) and part they belong to.
    var stayDrafts: [(draft: ContactDraft, trip: Int, part: Int)] = []
    /// Base and shop ids something links (a dive, a trip part).
    var linkedContacts: Set<String> = []
    private var tripPartIndex = 0
    @exclusivity(unchecked) var dive: DiveDraft?
    @exclusivity(unchecked) private var tank: TankDraft?
    @exclusivity(unchecked) private var waypoint = WaypointDraft(order: 0, pressureStart: 0, extraStart: 0)
    /// The extra channel of the waypoint element being read (-1: none).
    @exclusivity(unchecked) private var pendingExtra = -1
    /// The `@level` of the `<alarm>`, or the `@type` of the `<info>`, being read.
    private var pendingAttribute: String?
    /// The waypoint's deepest mandatory stop so far, its time, and how many others it lists.
    private var stopDepth: DecimalNumber?
    private var stopTime: DecimalNumber?
    private var laterStops = 0
    /// The `@ref` index of the `<tankpressure>` being read (-1: none).
    @exclusivity(unchecked) private var pendingTankRef = -1
    /// Flags for the records being read: cheaper to test than the optional drafts.
    @exclusivity(unchecked) private(set) var inDive = false
    @exclusivity(unchecked) private var inWaypoint = false
    @exclusivity(unchecked) private var inTank = false
    /// The last tank-pressure `@ref` seen, to intern refs without building a String each time.
    @exclusivity(unchecked) private var lastRefBytes: [UInt8] = []
    @exclusivity(unchecked) private var lastRef = -1

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "uddf")
        accounts = Unmanaged.passUnretained(accountant)
    }


    var isShearwaterCloud: Bool {
        generatorName == "Shearwater Cloud Desktop" && generatorManufacturerID == "Shearwater_Research_Inc"
    }

    var line: Int { parser?.line ?? 0 }

    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String?, line: Int? = nil) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: file, line: line ?? self.line, path: path)))
    }

    private func parent(_ n: Int = 1) -> Tag {
        let i = stack.count - 1 - n
        return i >= 0 ? stack[i] : .other
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        startElementBody(localName, attributes)
        noteUnreadAttributes(attributes)
    }

    private func startElementBody(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        let tag = Tag(rawValue: tags.code(localName)) ?? .other
        stack.append(tag)
        if !sawRoot {
            sawRoot = true
            guard tag == .uddf else {
                let name = String(cString: localName)
                parser?.stop(with: DiveError("uddf.not-uddf",
                    "the file is XML but not UDDF: its root element is <\(name)>, not <uddf>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            header.sourceFormat = "uddf"
            header.sourceVersion = attributes.value("version")
            return
        }
        // Every element's own text is captured: a handler may read it, and an element nothing
        // reads is reported with it.
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if inDive { startInDive(tag, attributes); return }
        if tag != .other || attributes.count > 0, let id = attributes.value("id"), !id.isEmpty, definedIDs[id] == nil {
            definedIDs[id] = tag
        }
        let p = parent()
        if contact != nil {
            if tag == .guide && p == .divebase {
                guideID = attributes.value("id")
            } else if tag == .link && p == .guide {
                if let g = guideID, let ref = attributes.value("ref") { guideBuddy[g] = ref }
            } else if stack.count == contactDepth + 1, ![.name, .address, .contact, .notes].contains(tag) {
                contact?.unread.append(String(cString: localName))
                coverCurrent()
            }
            return
        }
        switch tag {
        case .divebase where p == .divesite:
            contact = ContactDraft(kind: .base, id: attributes.value("id"), line: line)
            contactDepth = stack.count
        case .shop where p == .business:
            contact = ContactDraft(kind: .shop, id: attributes.value("id"), line: line)
            contactDepth = stack.count
        case .accomodation where p == .trippart, .accommodation where p == .trippart:
            contact = ContactDraft(kind: .accommodation, id: attributes.value("id"), line: line)
            contactDepth = stack.count
        case .operator where p == .trippart:
            contact = ContactDraft(kind: .liveaboard, id: nil, line: line)
            contactDepth = stack.count
        case .vessel where p == .trippart:
            tripPart?.hasVessel = true
            coverCurrent()
        case .link where p == .trippart: if let ref = attributes.value("ref") { tripPart?.links.append(ref) }
        case .insurance where p == .diveinsurances && isOwner: person?.insurances.append((nil, nil))
        default: break
        }
        switch tag {
        case .manufacturer where p == .generator: generatorManufacturerID = attributes.value("id")
        case .owner where p == .diver:
            person = PersonDraft(id: attributes.value("id"), index: 0, line: line)
            isOwner = true
        case .buddy where p == .diver:
            person = PersonDraft(id: attributes.value("id"), index: buddyIndex, line: line)
            isOwner = false
            buddyIndex += 1
        case .student where person != nil: person?.student = true
        case _ where tag.isGearPiece && p == .equipment && parent(2) == .owner:
            gear = GearDraft(tag: tag, id: attributes.value("id"), index: gearIndex, line: line)
            gearIndex += 1
        case .site where p == .divesite:
            site = SiteDraft(id: attributes.value("id"), index: siteIndex, line: line)
            siteIndex += 1
        case .trip where p == .divetrip:
            trip = TripDraft(id: attributes.value("id"), index: tripIndex, line: line)
            tripIndex += 1
        case .trippart where trip != nil:
            tripPart = TripPartDraft(index: tripPartIndex, typeAttribute: attributes.value("type"))
            tripPartIndex += 1
        case .dateoftrip where tripPart != nil:
            tripPart?.startDate = attributes.value("startdate")
            tripPart?.endDate = attributes.value("enddate")
        case .mix where p == .gasdefinitions:
            mix = MixDraft(id: attributes.value("id") ?? "")
        case .buehlmann where p == .decomodel:
            deco = DecoDraft(id: attributes.value("id") ?? "")
        case .guide where p == .divebase: guideID = attributes.value("id")
        case .link where p == .guide:
            if let g = guideID, let ref = attributes.value("ref") { guideBuddy[g] = ref }
        case .dive where p == .repetitiongroup || p == .profiledata:
            dive = DiveDraft(id: attributes.value("id"), index: diveIndex, line: line)
            diveIndex += 1
            inDive = true; accountant.inRecord = true
            accountant.recordDepth = stack.count
            lastRef = -1
            lastRefBytes.removeAll(keepingCapacity: true)
        default: break
        }
    }

    private func startInDive(_ tag: Tag, _ attributes: XMLAttributes) {
        let p = parent()
        switch tag {
        case .waypoint:
            // Optional chaining reads the counts in place (a force unwrap copies the draft).
            waypoint = WaypointDraft(order: dive?.waypoints.count ?? 0, pressureStart: dive?.pressures.count ?? 0,
                                     extraStart: dive?.extras.count ?? 0)
            stopDepth = nil
            inWaypoint = true
        case .decostop where inWaypoint:
            readDecoStop(attributes)
        case .alarm where inWaypoint: pendingAttribute = attributes.value("level")
        case .info where inWaypoint: pendingAttribute = attributes.value("type")
        case .setpo2 where inWaypoint: pendingExtra = extraChannel(.setpoint, ref: attributes.value("setby"))
        case .measuredpo2 where inWaypoint, .ppo2 where inWaypoint:
            pendingExtra = extraChannel(.sensorPPO2, ref: attributes.value("ref"))
        case .batteryvoltage where inWaypoint: pendingExtra = extraChannel(.batteryVoltage, ref: attributes.value("ref"))
        case .batterychargecondition where inWaypoint:
            pendingExtra = extraChannel(.batteryCharge, ref: attributes.value("deviceref") ?? attributes.value("ref"),
                                        tank: attributes.value("tankref"))
        case .scrubber where inWaypoint:
            pendingExtra = extraChannel(.scrubber, ref: attributes.value("ref"), unit: attributes.value("units"))
        case .pulserate where inWaypoint: pendingExtra = extraChannel(.heartRate)
        case .otu where inWaypoint: pendingExtra = extraChannel(.otu)
        case .heading where inWaypoint: pendingExtra = extraChannel(.heading)
        case .bodytemperature where inWaypoint: pendingExtra = extraChannel(.bodyTemperature)
        case .remainingbottomtime where inWaypoint: pendingExtra = extraChannel(.remainingBottomTime)
        case .remainingo2time where inWaypoint: pendingExtra = extraChannel(.remainingO2Time)
        case .tankpressure where inWaypoint:
            pendingTankRef = internRef(attributes.rawValue("ref"))
        case .switchmix where inWaypoint:
            dive?.switches[waypoint.order, default: []].append(attributes.value("ref") ?? "")
        case .divemode where inWaypoint:
            dive?.divemodes[waypoint.order] = attributes.value("type") ?? ""
        case .tankdata:
            tank = TankDraft(id: attributes.value("id"), line: line)
            inTank = true
        case .link:
            // The reference is read only where a link means something; elsewhere (a link in
            // <notes> to a picture, say) it is left unread and so reported.
            switch p {
            case .tankdata: tank?.links.append(attributes.value("ref") ?? "")
            case .equipmentused: dive?.equipmentLinks.append(attributes.value("ref") ?? "")
            case .informationbeforedive, .dive: dive?.links.append(attributes.value("ref") ?? "")
            default: break
            }
        case .tripmembership:
            dive?.tripRef = attributes.value("ref")
        default: break
        }
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing else { noteTrailingText(bytes); return }
        if appendXMLText(bytes, to: &text, tooLong: &textTooLong) { noteTooLong() }
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        // Still capturing at its end: no child came, so the captured text is all its own.
        let own = capturing
        endElementBody(localName)
        popMarks(ownTextCaptured: own)
    }

    private func endElementBody(_ localName: UnsafePointer<UInt8>) {
        guard let tag = stack.last else { return }
        defer { stack.removeLast(); capturing = false }
        if inDive { endInDive(tag); return }
        let p = parent()
        if contact != nil { endInContact(tag, p); return }
        switch tag {
        case .name where p == .insurance && isOwner:
            if let s = string(), var owner = person, !owner.insurances.isEmpty {
                owner.insurances[owner.insurances.count - 1].name = s
                person = owner
            }
        case .datetime where p == .validdate && parent(2) == .insurance && isOwner:
            if let s = string(), var owner = person, !owner.insurances.isEmpty {
                owner.insurances[owner.insurances.count - 1].validDate = s
                person = owner
            }
        default: break
        }
        switch tag {
        case .generator where p == .uddf:
            if let name = generatorName {
                var g = Generator(name: name, version: generatorVersion)
                g.type = generatorType
                g.writtenAt = generatorWrittenAt
                g.manufacturer = generatorManufacturer
                header.sourceGenerator = g
            }
        case .name where p == .generator: generatorName = string()
        case .version where p == .generator: generatorVersion = string()
        case .type where p == .generator: generatorType = string()
        case .datetime where p == .generator: generatorWrittenAt = string()
        case .name where p == .manufacturer && parent(2) == .generator: generatorManufacturer = string()
        case .name: endName(p)
        case .firstname where parent(2) == .owner || parent(2) == .buddy: person?.first = string()
        case .middlename where parent(2) == .owner || parent(2) == .buddy: person?.middle = string()
        case .lastname where parent(2) == .owner || parent(2) == .buddy: person?.last = string()
        case .email where p == .contact && person != nil && (parent(2) == .owner || parent(2) == .buddy):
            if person?.email == nil { person?.email = string() }
        case .phone where p == .contact && person != nil && (parent(2) == .owner || parent(2) == .buddy):
            if person?.phone == nil { person?.phone = string() }
        case .mobilephone where p == .contact && person != nil && (parent(2) == .owner || parent(2) == .buddy):
            if person?.mobile == nil { person?.mobile = string() }
        case .datetime where p == .birthdate && isOwner: person?.bornOn = string()
        case .para where p == .notes, .text where p == .notes: endNotesParagraph(owner: parent(2))
        case .notes where !hasChildElement: endNotesParagraph(owner: p)
        case .n2 where p == .mix: mix?.n2 = decimal("n2")
        case .ar where p == .mix, .h2 where p == .mix:
            // A zero says the mix holds none of it, which the model's blend already says;
            // any other amount is not carried (and reported when the element closes).
            if text.withUnsafeBytes({ DecimalNumber(bytes: $0) })?.isZero == true { markCarried() }
        case .aliasname where p == .site: if let s = string() { site?.aliases.append(s) }
        case .location where p == .geography:
            if parent(2) == .site { site?.location = string() } else if parent(2) == .trippart { tripPart?.location = string() }
        case .latitude where p == .geography:
            if parent(2) == .site { site?.latitude = decimal("latitude") } else if parent(2) == .trippart { tripPart?.latitude = decimal("latitude") }
        case .longitude where p == .geography:
            if parent(2) == .site { site?.longitude = decimal("longitude") } else if parent(2) == .trippart { tripPart?.longitude = decimal("longitude") }
        case .altitude where p == .geography && parent(2) == .site: site?.altitude = decimal("altitude")
        case .minimumdepth where p == .sitedata: site?.minimumDepth = decimal("minimumdepth")
        case .maximumdepth where p == .sitedata: site?.maximumDepth = decimal("maximumdepth")
        case .o2 where p == .mix: mix?.o2 = decimal("o2")
        case .he where p == .mix: mix?.he = decimal("he")
        case .maximumpo2 where p == .mix: mix?.maximumPO2 = decimal("maximumpo2")
        case .gradientfactorlow where p == .buehlmann: deco?.gfLow = decimal("gradientfactorlow")
        case .gradientfactorhigh where p == .buehlmann: deco?.gfHigh = decimal("gradientfactorhigh")
        case .model where gear != nil && p == gear?.tag: gear?.model = string()
        case .serialnumber where gear != nil && p == gear?.tag: gear?.serial = string()
        case .tankvolume where gear != nil && p == gear?.tag: gear?.volume = decimal("tankvolume")
        case .tankmaterial where gear != nil && p == gear?.tag: gear?.material = string()
        case .suittype where gear != nil && p == gear?.tag: gear?.suitType = string()
        case .owner where p == .diver:
            if let draft = person { finishOwner(draft) }
            person = nil
        case .buddy where p == .diver:
            if let draft = person { finishBuddy(draft) }
            person = nil
        case _ where gear != nil && tag == gear?.tag && p == .equipment:
            if let draft = gear { finishGear(draft) }
            gear = nil
        case .site where p == .divesite:
            if let draft = site { finishSite(draft) }
            site = nil
        case .trippart where trip != nil:
            if let part = tripPart { trip?.parts.append(part) }
            tripPart = nil
        case .trip where p == .divetrip:
            if let draft = trip { finishTrip(draft) }
            trip = nil
        case .mix where p == .gasdefinitions:
            if let m = mix, !m.id.isEmpty { mixes[m.id] = m }
            mix = nil
        case .buehlmann where p == .decomodel:
            if let d = deco, !d.id.isEmpty { decoModels[d.id] = d }
            deco = nil
        case .guide: guideID = nil
        default: break
        }
    }

    private func endInContact(_ tag: Tag, _ p: Tag) {
        let depth = stack.count   // the ending element is still on the stack
        if depth == contactDepth {
            guard let draft = contact else { return }
            contact = nil
            switch draft.kind {
            case .base: baseDrafts.append(draft)
            case .shop: shopDrafts.append(draft)
            case .accommodation, .liveaboard:
                var d = draft
                d.partIndex = tripPart?.index ?? 0
                tripPart?.stay = d
            }
            return
        }
        switch tag {
        case .guide: guideID = nil
        case .name where depth == contactDepth + 1: contact?.name = string()
        case .street where p == .address: contact?.street = string(); contact?.hasAddress = true
        case .city where p == .address: contact?.city = string(); contact?.hasAddress = true
        case .postcode where p == .address: contact?.postcode = string(); contact?.hasAddress = true
        case .province where p == .address: contact?.province = string(); contact?.hasAddress = true
        case .country where p == .address: contact?.country = string(); contact?.hasAddress = true
        case .phone where p == .contact: if let s = string() { contact?.phones.append(s) }
        case .mobilephone where p == .contact: if let s = string() { contact?.mobiles.append(s) }
        case .email where p == .contact: if let s = string() { contact?.emails.append(s) }
        case .homepage where p == .contact: if let s = string() { contact?.homepages.append(s) }
        case .para where p == .notes: if let s = string() { contact?.notes.append(s) }
        default: break
        }
    }

    private func endName(_ p: Tag) {
        if p == .site { site?.name = string(); return }
        if p == .mix { mix?.name = string(); return }
        if p == .trip { trip?.name = string(); return }
        if p == .trippart { tripPart?.name = string(); return }
        if let g = gear {
            if p == g.tag { gear?.name = string() } else if p == .manufacturer && parent(2) == g.tag { gear?.brand = string() }
        }
    }

    private func endNotesParagraph(owner: Tag) {
        guard let s = string() else { return }
        switch owner {
        case .site: site?.notes.append(s)
        case .buddy, .owner: person?.notes.append(s)
        case .trip: trip?.notes.append(s)
        case .trippart: trip?.notes.append(s)
        case _ where gear != nil && owner == gear?.tag: gear?.notes.append(s)
        default: break
        }
    }

    /// True when the element being closed had a child element.

    /// Adds a reading of `kind` to the waypoint being read.
    private func addExtra(_ kind: ExtraChannel.Kind, _ value: DecimalNumber?) {
        if let value { dive?.extras.append(ExtraReading(channel: extraChannel(kind), value: value)) }
    }

    /// The index of an extra channel of the dive being read, added on first use.
    private func extraChannel(_ kind: ExtraChannel.Kind, ref: String? = nil, unit: String? = nil, tank: String? = nil) -> Int {
        let key = ExtraChannel(kind: kind, ref: ref.flatMap { $0.isEmpty ? nil : $0 },
                               sourceUnit: unit.flatMap { $0.isEmpty ? nil : $0 }, tank: tank.flatMap { $0.isEmpty ? nil : $0 })
        if let i = dive?.extraIndex[key] { return i }
        let i = dive?.extraChannels.count ?? 0
        dive?.extraChannels.append(key)
        dive?.extraIndex[key] = i
        return i
    }

    /// A `<decostop>`: a mandatory stop's depth is the ceiling and its time an extra channel;
    /// a safety stop is carried as its own channels, unless it states 0 m for 0 s.
    private func readDecoStop(_ attributes: XMLAttributes) {
        let kind = attributes.value("kind")?.lowercased() ?? ""
        let depth = attributes.rawValue("decodepth").flatMap { DecimalNumber(bytes: UnsafeRawBufferPointer($0)) }
        let duration = attributes.rawValue("duration").flatMap { DecimalNumber(bytes: UnsafeRawBufferPointer($0)) }
        func add(_ kind: ExtraChannel.Kind, _ v: DecimalNumber?) {
            if let v { dive?.extras.append(ExtraReading(channel: extraChannel(kind), value: v)) }
        }
        switch kind {
        case "mandatory":
            // Several stops on one waypoint are the computer's stop schedule: the deepest is
            // the ceiling, with its time; the later ones are counted and reported.
            guard let depth, let cm = depth.scaledInteger(2), cm > 0 else { dive?.zeroStops += 1; return }
            if let deepest = stopDepth {
                laterStops += 1
                guard deepest < depth else { return }
            }
            stopDepth = depth
            stopTime = duration
        case "safety":
            if depth?.isZero ?? true, duration?.isZero ?? true {
                dive?.placeholderStops += 1
            } else {
                add(.safetyStopDepth, depth)
                add(.safetyStopTime, duration)
            }
        default:
            dive?.unknownStopKinds.insert(kind)
        }
    }

    private func endInDive(_ tag: Tag) {
        let p = parent()
        if inWaypoint {
            switch tag {
            case .divetime: waypoint.time = waypointNumber("divetime")
            case .depth: waypoint.depth = waypointNumber("depth")
            case .temperature: waypoint.temperature = waypointNumber("temperature")
            case .nodecotime: waypoint.ndl = waypointNumber("nodecotime")
            case .calculatedpo2: waypoint.ppo2 = waypointNumber("calculatedpo2")
            case .cns: waypoint.cns = waypointNumber("cns")
            case .gradientfactor: waypoint.gradientFactor = waypointNumber("gradientfactor")
            case .tankpressure:
                if let v = waypointNumber("tankpressure") {
                    dive?.pressures.append(PressureReading(ref: pendingTankRef, value: v))
                }
                pendingTankRef = -1
            case .setmarker: if let s = string() { dive?.markers[waypoint.order, default: []].append(s) }
            case .timetosurface: addExtra(.tts, waypointNumber("timetosurface"))
            case .setgfhigh: addExtra(.gfHighSetting, waypointNumber("setgfhigh"))
            case .setgflow: addExtra(.gfLowSetting, waypointNumber("setgflow"))
            case .alarm, .info:
                let s = string()
                if s != nil || pendingAttribute != nil {
                    dive?.alarms[waypoint.order, default: []].append(AlarmDraft(text: s ?? "", qualifier: pendingAttribute, info: tag == .info))
                }
                pendingAttribute = nil
            case .setpo2, .measuredpo2, .ppo2, .batteryvoltage, .batterychargecondition, .scrubber, .pulserate, .otu,
                 .heading, .bodytemperature, .remainingbottomtime, .remainingo2time:
                if pendingExtra >= 0, let v = waypointNumber(tag.name) {
                    dive?.extras.append(ExtraReading(channel: pendingExtra, value: v))
                }
                pendingExtra = -1
            case .waypoint:
                if let depth = stopDepth {
                    addExtra(.ceiling, depth)
                    addExtra(.decoStopTime, stopTime)
                    stopDepth = nil
                }
                waypoint.extraEnd = dive?.extras.count ?? waypoint.extraStart
                waypoint.pressureEnd = dive?.pressures.count ?? waypoint.pressureStart
                if let count = dive?.waypoints.count, count >= samplesPerDive {
                    // Past the limit: what this waypoint added is taken back, and counted.
                    dive?.pressures.removeLast(waypoint.pressureEnd - waypoint.pressureStart)
                    dive?.extras.removeLast(waypoint.extraEnd - waypoint.extraStart)
                    dive?.switches[waypoint.order] = nil
                    dive?.markers[waypoint.order] = nil
                    dive?.divemodes[waypoint.order] = nil
                    dive?.alarms[waypoint.order] = nil
                    dive?.samplesOverLimit += 1
                } else {
                    dive?.waypoints.append(waypoint)
                }
                inWaypoint = false
            default: break
            }
            return
        }
        if inTank {
            switch tag {
            case .tankvolume: tank?.volume = diveNumber("tankvolume")
            case .tankpressurebegin: tank?.begin = diveNumber("tankpressurebegin")
            case .tankpressureend: tank?.end = diveNumber("tankpressureend")
            case .tankdata:
                if let t = tank { dive?.tanks.append(t) }
                tank = nil
                inTank = false
            default: break
            }
            return
        }
        let info = p == .informationbeforedive || p == .informationafterdive || p == .dive
        switch tag {
        case .datetime where p == .informationbeforedive || p == .dive: dive?.datetimeText = string()
        case .year where p == .date && parent(2) == .dive: dive?.year = integer("year")
        case .month where p == .date && parent(2) == .dive: dive?.month = integer("month")
        case .day where p == .date && parent(2) == .dive: dive?.day = integer("day")
        case .hour where p == .time && parent(2) == .dive: dive?.hour = integer("hour")
        case .minute where p == .time && parent(2) == .dive: dive?.minute = integer("minute")
        case .second where p == .time && parent(2) == .dive: dive?.second = integer("second")
        case .divenumber where info: dive?.number = integer("divenumber")
        case .internaldivenumber where info: dive?.internalNumber = integer("internaldivenumber")
        case .altitude where info: dive?.altitude = diveNumber("altitude")
        case .airtemperature where info: dive?.airTemperature = diveNumber("airtemperature")
        case .surfacepressure where info: dive?.surfacePressure = diveNumber("surfacepressure")
        case .apparatus where info: dive?.apparatus = string()
        case .platform where info: dive?.platform = string()
        case .leadquantity where p == .equipmentused: dive?.lead = diveNumber("leadquantity")
        case .greatestdepth where info: dive?.greatestDepth = diveNumber("greatestdepth")
        case .averagedepth where info: dive?.averageDepth = diveNumber("averagedepth")
        case .diveduration where info: dive?.duration = diveNumber("diveduration")
        case .lowesttemperature where info: dive?.lowestTemperature = diveNumber("lowesttemperature")
        case .visibility where info: dive?.visibilityText = string()
        case .current where info: dive?.current = string()
        case .ratingvalue where p == .rating: dive?.rating = string()
        case .passedtime where p == .surfaceintervalbeforedive: dive?.surfaceInterval = diveNumber("passedtime")
        case .infinity where p == .surfaceintervalbeforedive: dive?.surfaceIntervalInfinite = true
        case .highestpo2 where info: dive?.highestPO2 = diveNumber("highestpo2")
        case .notes where (p == .informationafterdive || p == .dive) && !hasChildElement:
            // Text written straight into <notes>, with no <para> around it.
            if let s = string() { dive?.notes.append(s) }
        case .para where p == .notes && (parent(2) == .informationafterdive || parent(2) == .dive),
             .text where p == .notes && (parent(2) == .informationafterdive || parent(2) == .dive):
            if let s = string() { dive?.notes.append(s) }
        case .dive:
            dive?.laterStops = laterStops
            laterStops = 0
            inDive = false; accountant.inRecord = false
            if let draft = dive {
                dive = nil
                if let built = finishDive(draft) { ready.append(built) }
            }
        default: break
        }
    }

    /// The index of a tank-pressure `@ref` in the dive's `refs` (-1 for none), comparing
    /// bytes with the last one seen before building a String.
    private func internRef(_ raw: UnsafeBufferPointer<UInt8>?) -> Int {
        guard let raw, raw.count > 0 else { return -1 }
        if lastRef >= 0 && raw.elementsEqual(lastRefBytes) { return lastRef }
        let text = String(decoding: raw, as: UTF8.self)
        var index = dive?.refs.firstIndex(of: text) ?? -1
        if index < 0 {
            index = dive?.refs.count ?? 0
            dive?.refs.append(text)
        }
        lastRef = index
        lastRefBytes.removeAll(keepingCapacity: true)
        lastRefBytes.append(contentsOf: raw)
        return index
    }

    // MARK: Text

    /// The captured text, trimmed; `nil` when empty (an empty element records nothing).
    func string() -> String? {
        markCarried()
        if textTooLong { return nil }
        let s = String(decoding: text, as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? nil : s
    }

    private func isBlank() -> Bool {
        text.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The captured text as an integer inside a dive; non-numeric text is reported as
    /// ``diveNumber(_:)`` reports it.
    private func integer(_ element: String) -> Int? {
        diveNumber(element)?.roundedInteger()
    }

    /// The captured text as a number; non-numeric text is reported against the header.
    private func decimal(_ element: String?) -> DecimalNumber? {
        markCarried()
        if textTooLong { return nil }
        if let d = text.withUnsafeBytes({ DecimalNumber(bytes: $0) }) { return d }
        if !isBlank(), let element, let s = string() {
            report(.dropped, "uddf.not-a-number", "<\(element)> holds \"\(s)\", which is not a number; it is not carried", path: nil)
        }
        return nil
    }

    /// The captured text as a number inside a dive; non-numeric text is counted per element
    /// and reported once per dive.
    private func diveNumber(_ element: String) -> DecimalNumber? {
        markCarried()
        if textTooLong { return nil }
        if let d = text.withUnsafeBytes({ DecimalNumber(bytes: $0) }) { return d }
        if !isBlank() {
            let example = String(decoding: text, as: UTF8.self).trimmingWhitespace()
            let l = line
            if var entry = dive?.badNumbers[element] {
                entry.count += 1
                dive?.badNumbers[element] = entry
            } else {
                dive?.badNumbers[element] = (1, example, l)
            }
        }
        return nil
    }

    @inline(__always) private func waypointNumber(_ element: String) -> DecimalNumber? {
        markCarried()
        if !textTooLong, let d = text.withUnsafeBytes({ DecimalNumber(bytes: $0) }) { return d }
        return diveNumber(element)
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("uddf.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        finishContacts()
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
