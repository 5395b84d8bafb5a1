/// The most a zip archive may cost to read, in one place: every zip-based format's reader
/// (Suunto DM3 `.SDE`, and later Diving Log `.DLD`…) opens its archive with these, so that a
/// hostile or broken archive costs bounded memory and time. Each limit, when passed, is a
/// thrown ``DiveCore/DiveError`` located in the archive (the entry named), never a trap.
///
/// The declared sizes are checked when the archive is opened, before anything is inflated;
/// the bytes an entry actually inflates to are checked as they come, against what its
/// directory record declared, so a directory that understates a size is caught too.
public struct ArchiveLimits: Sendable, Hashable {
    /// The most entries the central directory may list: `zip.too-many-entries`.
    public var maxEntries: Int
    /// The most bytes one entry may inflate to: `zip.too-large`.
    public var maxEntryBytes: Int64
    /// The most bytes all entries together may inflate to: `zip.too-large`.
    public var maxTotalBytes: Int64
    /// The most an entry may inflate per compressed byte: `zip.bomb`. Deflate reaches about
    /// 1030:1 on a run of one byte; XML dive logs compress 5–30:1.
    public var maxRatio: Int64
    /// Entries that inflate to no more than this are not held to ``maxRatio``: a small entry
    /// costs nothing whatever its ratio (an empty note compresses 100:1).
    public var ratioExemptBytes: Int64

    /// Limits of one's own (a test lowers them; a reader uses ``standard``).
    public init(maxEntries: Int, maxEntryBytes: Int64, maxTotalBytes: Int64, maxRatio: Int64, ratioExemptBytes: Int64) {
        self.maxEntries = maxEntries
        self.maxEntryBytes = maxEntryBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxRatio = maxRatio
        self.ratioExemptBytes = ratioExemptBytes
    }

    /// 100,000 entries, 256 MiB an entry, 1 GiB in all, 200:1 above 1 MiB. A Dive Manager 3
    /// export is one entry of about 15 KB per dive at 6:1.
    public static let standard = ArchiveLimits(maxEntries: 100_000, maxEntryBytes: 256 << 20, maxTotalBytes: 1 << 30,
                                               maxRatio: 200, ratioExemptBytes: 1 << 20)
}
