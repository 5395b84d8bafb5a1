import DiveCore
import DiveXML

/// What an accounting run saw, for tests (see ``XMLAccountant``).
public typealias UDDFAccounting = XMLAccounting

/// The UDDF reader's side of the shared accounting (``XMLAccountant``): its SAX events feed
/// the accountant, with the text it captured; what it did not carry becomes `uddf.not-carried`.
extension UDDFState {
    @inline(__always) func markCarried() { accountant.markCarried() }

    /// Marks the innermost open element, and so everything inside it, as spoken for by a
    /// finding the caller makes.
    func coverCurrent() { accountant.coverCurrent() }

    /// Called before the captured text is cleared for the child being opened.
    @inline(__always) func pushMarks(parentCapturing: Bool) {
        accountant.push(parentCapturing: parentCapturing, parentText: text)
    }

    @inline(__always) func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>) {
        accountant.noteUncapturedText(bytes)
    }

    func noteUnreadAttributes(_ attributes: XMLAttributes) { accountant.noteUnreadAttributes(attributes) }

    @inline(__always) func popMarks(ownTextCaptured: Bool) {
        accountant.pop(ownText: ownTextCaptured ? text : nil)
    }

    func noteTooLong() { accountant.noteTooLong() }

    func reportLongTexts(prefix: String) { findings += accountant.takeLongTexts(prefix: prefix) }

    /// Reports what was not carried in the dive just read (`dive: true`) or outside dives.
    func reportDrops(dive: Bool, prefix: String) { findings += accountant.takeDrops(record: dive, prefix: prefix) }
}
