import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// Hostile zip archives, made on the fly and given to the built binary: a located `zip.*`
/// error and exit 1, never a signal, in bounded memory and time.
@Suite(.serialized) struct ZipHostileCLITests {
    static let memoryBoundKB = 256 * 1024

    /// A Dive Manager export of one entry whose notes are 16 MiB of spaces, its directory
    /// saying the entry is 100,000 bytes: it passes every check made before inflating, and is
    /// stopped while inflating, at the size declared.
    @Test func aBombWhoseDirectoryLiesIsStoppedWhileInflating() throws {
        let dir = try Paths.temporaryDirectory()
        let head = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-15\" ?>\n<SUUNTO><MSG><DATE>02.03.2024</DATE><LOGNOTES>".utf8)
        let size = 16 << 20
        let archive = try Archive(data: Data(), accessMode: .create)
        try archive.addEntry(with: "0.xml", type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { position, chunk in
            Data((Int(position)..<(Int(position) + chunk)).map { $0 < head.count ? head[$0] : 0x20 })
        }
        var zip = [UInt8](try #require(archive.data))
        // The declared size, in the local header (offset 22) and the directory record (24 past its signature).
        func put(_ at: Int) { for k in 0..<4 { zip[at + k] = UInt8(truncatingIfNeeded: 100_000 >> (8 * k)) } }
        put(22)
        let cd = (0...(zip.count - 4)).first { zip[$0] == 0x50 && zip[$0 + 1] == 0x4B && zip[$0 + 2] == 0x01 && zip[$0 + 3] == 0x02 }!
        put(cd + 24)
        let path = dir + "/bomb.SDE"
        try Data(zip).write(to: URL(fileURLWithPath: path))
        for command in [["convert", path, "--to", "csv", "-o", dir + "/out.csv"], ["validate", path], ["inspect", path]] {
            let run = try runMeasured(Paths.umilog, command)
            #expect(run.signal == nil)
            // `validate` lists it among the file's problems (standard output), the others fail.
            #expect(run.status == 1, "\(command[0])")
            #expect((run.stdout + run.stderr).contains("bomb.SDE: error[zip.bomb]: 0.xml: the entry inflates to more than the 100000 bytes the archive's directory declares"),
                    "\(run.stdout + run.stderr)")
            #expect(run.peakKB < Self.memoryBoundKB, "peak \(run.peakKB) KB")
            #expect(run.seconds < 10)
        }
    }

    /// The sample cut at 40 places: each run ends on its own with a status, never a signal.
    @Test func aCutArchiveNeverTraps() throws {
        let dir = try Paths.temporaryDirectory()
        let sample = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.samples + "/suunto-dm3.SDE")))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let cut = Int.random(in: 0..<sample.count, using: &rng)
            let path = dir + "/cut.SDE"
            try Data(sample.prefix(cut)).write(to: URL(fileURLWithPath: path))
            let run = try runMeasured(Paths.umilog, ["convert", path, "--to", "json", "-o", dir + "/out.divejson", "-q"])
            #expect(run.signal == nil, "cut at \(cut)")
            #expect(run.status == 1, "cut at \(cut): \(run.stderr)")
            #expect(run.seconds < 10)
        }
    }
}
