internal import CLibXML2

/// libxml2's process-wide set-up. libxml2 2.9 must be initialised once before threads use
/// it (two validation passes run at once, and tests run in parallel); Swift runs a static's
/// initialiser exactly once, whichever thread gets there first.
package enum LibXML2 {
    package static let initialized: Void = { xmlInitParser() }()
}
