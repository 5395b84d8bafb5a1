import DiveCore
import DiveXML

/// What an accounting run saw, for tests (see ``XMLAccountant``).
public typealias UDDFAccounting = XMLAccounting

/// The UDDF reader's side of the shared accounting (``XMLAccountant``): its SAX events feed
/// the accountant, with the text it captured; what it did not carry becomes `uddf.not-carried`.
extension UDDFState {
    @inline(__always) func markCarried() { accounts._withUnsafeGuaranteedRef { $0.markCarried() } }

    /// Marks the innermost open element, and so everything inside it, as spoken for by a
    /// finding the caller makes.
    func coverCurrent() { accounts._withUnsafeGuaranteedRef { $0.coverCurrent() } }

    /// Called before the captured text is cleared for the child being opened.
    @inline(__always) func pushMarks(parentCapturing: Bool) {
        // Whether the parent holds text is asked only once per parent, and answered here,
        // where the captured text is: handing the array across costs a retain per element.
        let hasText = parentCapturing && !accountant.marks.isEmpty && !accountant.marks.top.contains(.hasText) && !Self.isBlank(text)
        accounts._withUnsafeGuaranteedRef { $0.push(parentHasText: hasText) }
    }

    @inline(__always) func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>) {
        accounts._withUnsafeGuaranteedRef { $0.noteUncapturedText(bytes) }
    }

    func noteUnreadAttributes(_ attributes: XMLAttributes) { accounts._withUnsafeGuaranteedRef { $0.noteUnreadAttributes(attributes) } }

    @inline(__always) func popMarks(ownTextCaptured: Bool) {
        accounts._withUnsafeGuaranteedRef { $0.pop(ownText: { ownTextCaptured ? text : nil }) }
    }

    @inline(__always) static func isBlank(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }

    func noteTooLong() { accounts._withUnsafeGuaranteedRef { $0.noteTooLong() } }

    func reportLongTexts(prefix: String) { findings += accounts._withUnsafeGuaranteedRef { $0.takeLongTexts(prefix: prefix) } }

    /// Reports what was not carried in the dive just read (`dive: true`) or outside dives.
    func reportDrops(dive: Bool, prefix: String) { findings += accounts._withUnsafeGuaranteedRef { $0.takeDrops(record: dive, prefix: prefix) } }
}
