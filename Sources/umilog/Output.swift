import DiveKit
#if canImport(Glibc)
import Glibc
#endif

// Every line umilog prints goes through here, written whole with one write(2) to its
// descriptor, nothing buffered: with `> f 2>&1` standard output and standard error share one
// file, and a buffered standard output flushed in 4 KiB pieces would cut its lines where a
// line of standard error came in between. On a terminal a severity is coloured (unless
// NO_COLOR is set) and a long job draws a progress line on standard error, cleared before any
// other line is written.

/// Writes `line` and a newline to standard output (its severity coloured on a terminal,
/// unless `colour` is false: machine-readable output).
func printLine(_ line: String, colour: Bool = true) {
    Output.write(line + "\n", to: 1, colour: colour)
}

/// Writes `text` to standard output as it is: no newline added, no colour.
func printText(_ text: String) {
    Output.write(text, to: 1, colour: false)
}

/// Writes `line` and a newline to standard error.
func printError(_ line: String) {
    Output.write(line + "\n", to: 2, colour: true)
}

enum Output {
    /// Colour for standard output and standard error: a terminal, and NO_COLOR not set.
    private static let allowed = TerminalText.colourAllowed(noColor: getenv("NO_COLOR").map { String(cString: $0) })
    private static let colourOut = allowed && isatty(1) == 1
    private static let colourErr = allowed && isatty(2) == 1
    /// A progress line is on the screen. Drawn by the job's progress callback, one call at a
    /// time (the meter's lock), from whichever thread counts (a reader reading ahead too); every
    /// other line is written once the job has returned and its threads have ended.
    nonisolated(unsafe) private static var progressShown = false

    static func write(_ text: String, to fd: Int32, colour: Bool) {
        clearProgress()
        let paint = colour && (fd == 1 ? colourOut : colourErr)
        let lines = paint ? text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.paint(String($0)) }.joined(separator: "\n") : text
        writeAll(fd, lines)
    }

    /// The progress a long job reports, drawn on standard error: only when it is a terminal
    /// and the command is not `--quiet`, nor streaming its result (`resultToStandardOutput`)
    /// to a terminal, where the line would be drawn over it.
    static func progress(quiet: Bool, resultToStandardOutput: Bool = false) -> JobProgress? {
        guard !quiet, isatty(2) == 1, !(resultToStandardOutput && isatty(1) == 1) else { return nil }
        return JobProgress { snapshot in
            if snapshot.finished { clearProgress(); return }
            writeAll(2, "\r" + TerminalText.progressLine(snapshot, width: columns()) + "\u{1B}[K")
            progressShown = true
            setProgressLineShown(true)
        }
    }

    private static func clearProgress() {
        guard progressShown else { return }
        progressShown = false
        setProgressLineShown(false)
        writeAll(2, "\r\u{1B}[K")
    }

    /// The terminal's width (80 when it does not say).
    private static func columns() -> Int {
        var size = winsize()
        return ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Writes all of `text`, in one call unless the descriptor takes less at a time.
    private static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
