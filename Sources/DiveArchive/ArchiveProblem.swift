import DiveCore

/// The refusals of the zip layer, each with its stable code and one plain sentence. An error
/// about one entry is located at the archive with the entry's name as its path
/// (`export.SDE: error[zip.bomb]: 0.xml: …`).
enum ArchiveProblem {
    static func at(_ archive: String, _ entry: String?) -> SourceLocation {
        SourceLocation(file: archive, path: entry)
    }

    static func notAZip(_ archive: String) -> DiveError {
        DiveError("zip.corrupt", "the file is not a zip archive: it has no end-of-directory record", at: at(archive, nil))
    }

    static func truncated(_ archive: String, _ entry: String?, _ what: String) -> DiveError {
        DiveError("zip.truncated", "the zip archive ends too early: \(what); the file looks truncated", at: at(archive, entry))
    }

    static func corrupt(_ archive: String, _ entry: String?, _ what: String) -> DiveError {
        DiveError("zip.corrupt", "the zip archive is damaged: \(what)", at: at(archive, entry))
    }

    static func unsupported(_ archive: String, _ entry: String?, _ what: String) -> DiveError {
        DiveError("zip.unsupported", "the zip archive uses \(what), which umilog does not read", at: at(archive, entry))
    }

    static func tooManyEntries(_ archive: String, _ count: UInt64, limit: Int) -> DiveError {
        DiveError("zip.too-many-entries",
                  "the zip archive lists \(count) entries, more than the \(limit) umilog reads from one archive; it is refused before any is read",
                  at: at(archive, nil))
    }

    static func entryTooLarge(_ archive: String, _ entry: String, _ bytes: Int64, limit: Int64) -> DiveError {
        DiveError("zip.too-large",
                  "the entry inflates to \(bytes) bytes, more than the \(limit) bytes umilog inflates from one entry; the archive is refused before it is inflated",
                  at: at(archive, entry))
    }

    static func totalTooLarge(_ archive: String, _ bytes: Int64, limit: Int64) -> DiveError {
        DiveError("zip.too-large",
                  "the archive's entries inflate to \(bytes) bytes in all, more than the \(limit) bytes umilog inflates from one archive; it is refused before any is inflated",
                  at: at(archive, nil))
    }

    static func ratio(_ archive: String, _ entry: String, compressed: Int64, inflated: Int64, limit: Int64) -> DiveError {
        DiveError("zip.bomb",
                  "the entry's \(compressed) compressed bytes inflate to \(inflated), more than \(limit) times as many: a decompression bomb, refused before it is inflated",
                  at: at(archive, entry))
    }

    static func inflatesPastDeclared(_ archive: String, _ entry: String, declared: Int64) -> DiveError {
        DiveError("zip.bomb",
                  "the entry inflates to more than the \(declared) bytes the archive's directory declares for it: the directory understates it (how a decompression bomb passes a size check) or the data is damaged; reading stopped there",
                  at: at(archive, entry))
    }
}
