import Foundation

/// Where the logbook is when no `--db` names one: `UMILOG_DB` when set, else `logbook.sqlite`
/// in umilog's XDG data directory (`$XDG_DATA_HOME/umilog`, by default
/// `~/.local/share/umilog`), the directory made when the logbook is first created.
public enum DefaultLogbook {
    /// The default logbook's path in `environment`; nil when neither `UMILOG_DB`, an absolute
    /// `XDG_DATA_HOME` nor `HOME` is set.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let db = environment["UMILOG_DB"], !db.isEmpty { return db }
        return dataDirectory(environment: environment).map { $0 + "/logbook.sqlite" }
    }

    /// umilog's XDG data directory: `$XDG_DATA_HOME/umilog` (an absolute `XDG_DATA_HOME`, as the
    /// XDG base directory specification asks; a relative one is ignored), else
    /// `$HOME/.local/share/umilog`.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/umilog" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/umilog" }
        return nil
    }

    /// Whether `path` is the XDG default (not a `UMILOG_DB` or `--db` the user chose): its
    /// directory may be made.
    public static func isDataDirectoryDefault(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        (environment["UMILOG_DB"] ?? "").isEmpty && dataDirectory(environment: environment).map { path == $0 + "/logbook.sqlite" } == true
    }
}
