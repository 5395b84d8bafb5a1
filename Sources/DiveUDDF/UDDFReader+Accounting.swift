import DiveXML

/// What an accounting run saw, for tests (see ``XMLAccountant``).
public typealias UDDFAccounting = XMLAccounting

/// The UDDF reader's calls into the shared accounting (``XMLAccountingState``): what it did not
/// carry becomes `uddf.not-carried`.
extension UDDFState {
    @inline(__always) func markCarried() { accounts._withUnsafeGuaranteedRef { $0.markCarried() } }

    func coverCurrent() { accounts._withUnsafeGuaranteedRef { $0.coverCurrent() } }

    /// Called before the captured text is cleared for the child being opened. Whether the parent
    /// holds text is asked once per parent, and answered here, where the captured text is:
    /// handing the array across costs a retain per element.
    @inline(__always) func pushMarks(parentCapturing: Bool) {
        let hasText = parentCapturing && accounts._withUnsafeGuaranteedRef { $0.parentTextUnknown } && !isBlankXML(text)
        accounts._withUnsafeGuaranteedRef { $0.push(parentHasText: hasText) }
    }

    @inline(__always) func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>) {
        accounts._withUnsafeGuaranteedRef { $0.noteUncapturedText(bytes) }
    }

    @inline(__always) func noteUnreadAttributes(_ attributes: XMLAttributes) {
        accounts._withUnsafeGuaranteedRef { $0.noteUnreadAttributes(attributes) }
    }

    /// `ownTextCaptured`: the captured text is all the closing element's own.
    @inline(__always) func popMarks(ownTextCaptured: Bool) {
        accounts._withUnsafeGuaranteedRef { $0.pop(ownText: { ownTextCaptured ? self.text : nil }) }
    }

    func noteTooLong() { accounts._withUnsafeGuaranteedRef { $0.noteTooLong() } }
}
