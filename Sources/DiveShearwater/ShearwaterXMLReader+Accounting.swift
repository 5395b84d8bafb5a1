import DiveXML

/// The Shearwater XML reader's calls into the shared accounting (``XMLAccountingState``): what
/// it did not carry becomes `shearwater-xml.not-carried`.
extension ShearwaterXMLState {
    @inline(__always) func markCarried() { accounts._withUnsafeGuaranteedRef { $0.markCarried() } }

    func coverCurrent() { accounts._withUnsafeGuaranteedRef { $0.coverCurrent() } }

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

    @inline(__always) func popMarks(ownTextCaptured: Bool) {
        accounts._withUnsafeGuaranteedRef { $0.pop(ownText: { ownTextCaptured ? self.text : nil }) }
    }

    func noteTooLong() { accounts._withUnsafeGuaranteedRef { $0.noteTooLong() } }
}
