import DiveKit
import DiveXML
import Foundation
import Testing
import TestSupport

/// Every XML reader tokenises on a thread of its own (``XMLDiveReader/parsesAhead``): what it
/// reads must be exactly what one thread reads — the same dives, header, findings (with their
/// lines and columns) and errors — for whole files, files cut short, files broken in the middle
/// of a chunk, and files the handler refuses.
@Suite struct ParseAheadTests {
    /// What a caller sees of a reader: its dives, each dive's findings, the header at the end,
    /// and the error that stopped it.
    struct Reading: Equatable {
        var dives: [Dive] = []
        var findings: [[String]] = []
        var header = LogbookHeader()
        var error: String?
        var bytesRead = 0
    }

    func read(_ path: String, format: FileFormat, ahead: Bool) throws -> Reading {
        let source = try openReader(path: path, format: format)
        let reader = try #require(source as? XMLDiveReader, "\(path) is not read by an XML reader")
        reader.parsesAhead = ahead
        var r = Reading()
        do {
            while let dive = try reader.next() {
                r.dives.append(dive)
                r.findings.append(reader.takeFindings().map(\.description))
            }
        } catch {
            r.error = "\(error)"
        }
        r.findings.append(reader.takeFindings().map(\.description))
        r.header = reader.header
        r.bytesRead = reader.bytesRead
        return r
    }

    func expectSame(_ path: String, format: FileFormat, _ comment: String = "") throws {
        let one = try read(path, format: format, ahead: false)
        let two = try read(path, format: format, ahead: true)
        #expect(two.dives == one.dives, "\(path) \(comment)")
        #expect(two.findings == one.findings, "\(path) \(comment)")
        #expect(two.header == one.header, "\(path) \(comment)")
        #expect(two.error == one.error, "\(path) \(comment)")
        #expect(two.bytesRead == one.bytesRead, "\(path) \(comment)")
    }

    /// Every XML dive log of the samples and the shared corpus, by the format its bytes say.
    static var xmlFiles: [String] {
        var roots = [Paths.samples]
        if Paths.sharedAvailable { roots += [Paths.corpus, Paths.fixtures] }
        var out: [String] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                let path = root + "/" + relative
                guard let format = try? detectFormat(path: path), (try? openReader(path: path, format: format)) is XMLDiveReader else { continue }
                out.append(path)
            }
        }
        return out.sorted()
    }

    @Test("the samples' and the corpus's XML dive logs, whole and cut short, read alike on one thread and two", arguments: xmlFiles)
    func sameAsOneThread(path: String) throws {
        let format = try detectFormat(path: path)
        try expectSame(path, format: format)
        // Cut at a third and two thirds: the error at the file's end, and what came before it.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let dir = try Paths.temporaryDirectory()
        for fraction in [3, 2] {
            let cut = dir + "/cut-\(fraction)." + (path.split(separator: ".").last.map(String.init) ?? "xml")
            try bytes.prefix(bytes.count * (fraction - 1) / fraction + 1).write(to: URL(fileURLWithPath: cut))
            try expectSame(cut, format: format, "cut at \(fraction - 1)/\(fraction)")
        }
    }

    @Test("a logbook of many chunks, whole, cut short, broken mid-chunk and refused by the handler, reads alike")
    func manyChunks() throws {
        let dir = try Paths.temporaryDirectory()
        let path = try makeLogbook(dives: 12, interval: 2, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Several of the parser's 256 KiB chunks, so that blocks are handed over one by one.
        #expect(bytes.count > 4 * 262_144)
        try expectSame(path, format: .uddf)
        let whole = try read(path, format: .uddf, ahead: true)
        #expect(whole.dives.count == 12)
        #expect(whole.error == nil)

        // Cut in the middle of the fourth chunk.
        let cut = dir + "/cut.uddf"
        try bytes.prefix(3 * 262_144 + 100_000).write(to: URL(fileURLWithPath: cut))
        try expectSame(cut, format: .uddf)
        #expect(try read(cut, format: .uddf, ahead: true).error?.contains("error[xml.truncated]") == true)

        // A closing tag misspelt in the middle of the third chunk: the dives before it, then the error.
        var broken = bytes
        let middle = 2 * 262_144 + 131_072
        let close = Data("</depth>".utf8)
        let at = try #require(broken.range(of: close, in: middle..<broken.count))
        broken.replaceSubrange(at, with: Data("</deptx>".utf8))
        let brokenPath = dir + "/broken.uddf"
        try broken.write(to: URL(fileURLWithPath: brokenPath))
        try expectSame(brokenPath, format: .uddf)
        let brokenRead = try read(brokenPath, format: .uddf, ahead: true)
        #expect(brokenRead.error?.contains("error[xml.malformed]") == true)
        #expect(brokenRead.dives.count > 0 && brokenRead.dives.count < 12)

        // Read as Subsurface XML: the handler refuses the root, and the parse stops there.
        let ssrf = try #require(FileFormat(rawValue: "ssrf"))
        try expectSame(path, format: ssrf)
        #expect(try read(path, format: ssrf, ahead: true).error?.contains("error[ssrf.not-ssrf]") == true)
    }
}
