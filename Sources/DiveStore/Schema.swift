import GRDB

/// The logbook's tables, created by named migrations in order. A database another version of
/// umilog created is brought up to date on open; one created by a newer version is refused.
///
/// Units are the canonical model's (DiveJSON's): metres, seconds, bar, °C, litres, percent.
/// Members of a record that no column holds are kept in its `detail` column: the DiveJSON
/// object of the record with the column-held members left out (see `DiveJSONFragment`), so
/// nothing a dive log carried is lost, and there is one spelling of it.
enum Schema {
    /// The migrations, in order: each an identifier and the SQL it runs.
    static let migrations: [(id: String, run: @Sendable (Database) throws -> Void)] = [
        ("v1-catalog", { db in try db.execute(sql: catalog) }),
        ("v1-logbook", { db in try db.execute(sql: logbook) }),
        // The id the source gave a dive that was merged into another, or skipped as its
        // duplicate: the same record read again from a changed file is known by it.
        ("v2-dive-source-uuid", { db in
            try db.execute(sql: """
                ALTER TABLE dive_source ADD COLUMN source_uuid TEXT;
                CREATE INDEX dive_source_uuid ON dive_source(source_uuid);
                """)
        }),
        // How many dive records the file holds: the file is known whole (and need not be read
        // again) only when the logbook has every one of them. A backup restores a file's row
        // while holding, perhaps, a few of its dives.
        ("v3-source-file-records", { db in
            try db.execute(sql: "ALTER TABLE source_file ADD COLUMN records INTEGER")
        }),
        // What the app asks of a large logbook without reading every dive (issue 21; the plans
        // are checked by QueryPlanTests): a dive by its number (`show`, `plot --dive`, an export
        // of one number), and the deepest and the longest dive for `stats`.
        ("v4-dive-query-indexes", { db in
            try db.execute(sql: """
                CREATE INDEX dive_number ON dive(number);
                CREATE INDEX dive_deepest ON dive(max_depth DESC, start_key);
                CREATE INDEX dive_longest ON dive(bottom_time DESC, start_key);
                """)
        }),
    ]

    /// The migrations as GRDB's migrator knows them: what it reads of a logbook (which are
    /// applied, whether a newer umilog wrote it) uses the same `grdb_migrations` table.
    static func migrator() -> DatabaseMigrator {
        var m = DatabaseMigrator()
        for (id, run) in migrations { m.registerMigration(id, migrate: run) }
        return m
    }

    /// Applies the migrations `db` lacks, inside the caller's transaction: all of them or none.
    /// Run in an immediate transaction, it is safe against other processes doing the same at
    /// the same moment — the first to take the write lock migrates, the others find nothing
    /// left to do. (GRDB's migrator reads what is applied before it takes the lock, and runs each
    /// migration in a transaction of its own: two processes creating one logbook both ran
    /// `v1-catalog`.) None of the migrations needs foreign keys off; one that rebuilds a table
    /// would have to be run otherwise.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        for (id, run) in migrations where !applied.contains(id) {
            try run(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [id])
        }
    }

    /// Regions → areas → sites, species, and what the diver thinks of a site.
    static let catalog = """
    CREATE TABLE region (
      id TEXT PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      min_lat REAL, max_lat REAL, min_lon REAL, max_lon REAL,
      CHECK (min_lat IS NULL OR (min_lat <= max_lat AND min_lat >= -90 AND max_lat <= 90))
    ) STRICT;

    CREATE TABLE area (
      id TEXT PRIMARY KEY NOT NULL,
      region_id TEXT NOT NULL REFERENCES region(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      country TEXT,
      min_lat REAL, max_lat REAL, min_lon REAL, max_lon REAL
    ) STRICT;
    CREATE INDEX area_region ON area(region_id);

    -- kind: catalog (seeded), log (came with imported dives), user (made from a dive's GPS).
    -- canonical_site_id: the catalog or user site a log site was matched to by backfill.
    CREATE TABLE site (
      id TEXT PRIMARY KEY NOT NULL,
      area_id TEXT REFERENCES area(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      lat REAL CHECK (lat BETWEEN -90 AND 90),
      lon REAL CHECK (lon BETWEEN -180 AND 180),
      tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
      typicals TEXT CHECK (typicals IS NULL OR json_valid(typicals)),
      kind TEXT NOT NULL CHECK (kind IN ('catalog', 'log', 'user')),
      canonical_site_id TEXT REFERENCES site(id) ON DELETE SET NULL,
      wikidata TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      CHECK ((lat IS NULL) = (lon IS NULL))
    ) STRICT;
    CREATE INDEX site_area ON site(area_id);
    CREATE INDEX site_canonical ON site(canonical_site_id);
    CREATE INDEX site_lat_lon ON site(lat, lon);

    -- A site's other names (a log site's other_names, a catalog site's aliases), in order.
    CREATE TABLE site_alias (
      site_id TEXT NOT NULL REFERENCES site(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      alias TEXT NOT NULL,
      normalized TEXT NOT NULL,
      PRIMARY KEY (site_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX site_alias_normalized ON site_alias(normalized);

    -- Every site with coordinates, as a point, for fetchInBounds.
    CREATE VIRTUAL TABLE site_rtree USING rtree(rowid, min_lat, max_lat, min_lon, max_lon);
    CREATE TRIGGER site_rtree_insert AFTER INSERT ON site WHEN new.lat IS NOT NULL BEGIN
      INSERT INTO site_rtree VALUES (new.rowid, new.lat, new.lat, new.lon, new.lon);
    END;
    CREATE TRIGGER site_rtree_update AFTER UPDATE OF lat, lon ON site BEGIN
      DELETE FROM site_rtree WHERE rowid = old.rowid;
      INSERT INTO site_rtree SELECT new.rowid, new.lat, new.lat, new.lon, new.lon WHERE new.lat IS NOT NULL;
    END;
    CREATE TRIGGER site_rtree_delete AFTER DELETE ON site BEGIN
      DELETE FROM site_rtree WHERE rowid = old.rowid;
    END;

    -- Site names and aliases, searchable by word and prefix, accents folded.
    CREATE VIRTUAL TABLE site_fts USING fts5(name, aliases, tokenize = 'unicode61 remove_diacritics 2');
    CREATE TRIGGER site_fts_insert AFTER INSERT ON site BEGIN
      INSERT INTO site_fts(rowid, name, aliases) VALUES (new.rowid, new.name, '');
    END;
    CREATE TRIGGER site_fts_update AFTER UPDATE OF name ON site BEGIN
      UPDATE site_fts SET name = new.name WHERE rowid = new.rowid;
    END;
    CREATE TRIGGER site_fts_delete AFTER DELETE ON site BEGIN
      DELETE FROM site_fts WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER site_alias_fts_insert AFTER INSERT ON site_alias BEGIN
      UPDATE site_fts SET aliases = (SELECT group_concat(alias, ' | ') FROM site_alias WHERE site_id = new.site_id)
        WHERE rowid = (SELECT rowid FROM site WHERE id = new.site_id);
    END;
    CREATE TRIGGER site_alias_fts_delete AFTER DELETE ON site_alias BEGIN
      UPDATE site_fts SET aliases = coalesce((SELECT group_concat(alias, ' | ') FROM site_alias WHERE site_id = old.site_id), '')
        WHERE rowid = (SELECT rowid FROM site WHERE id = old.site_id);
    END;

    CREATE TABLE list_state (
      site_id TEXT PRIMARY KEY NOT NULL REFERENCES site(id) ON DELETE CASCADE,
      state TEXT NOT NULL CHECK (state IN ('visited', 'wishlist', 'planned'))
    ) STRICT;

    -- kind: catalog (seeded, with a WoRMS AphiaID), log (a dive log's species record).
    CREATE TABLE species (
      id TEXT PRIMARY KEY NOT NULL,
      scientific_name TEXT,
      common_name TEXT,
      names TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(names)),
      aphia_id INTEGER UNIQUE,
      rarity TEXT CHECK (rarity IN ('common', 'uncommon', 'rare')),
      regions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(regions)),
      kind TEXT NOT NULL CHECK (kind IN ('catalog', 'log')),
      detail TEXT CHECK (detail IS NULL OR json_valid(detail))
    ) STRICT;

    CREATE VIRTUAL TABLE species_fts USING fts5(scientific_name, names, tokenize = 'unicode61 remove_diacritics 2');
    CREATE TRIGGER species_fts_insert AFTER INSERT ON species BEGIN
      INSERT INTO species_fts(rowid, scientific_name, names)
        VALUES (new.rowid, coalesce(new.scientific_name, ''), coalesce(new.common_name, '') || ' | ' || (SELECT coalesce(group_concat(value, ' | '), '') FROM json_each(new.names)));
    END;
    CREATE TRIGGER species_fts_update AFTER UPDATE OF scientific_name, common_name, names ON species BEGIN
      UPDATE species_fts SET scientific_name = coalesce(new.scientific_name, ''),
        names = coalesce(new.common_name, '') || ' | ' || (SELECT coalesce(group_concat(value, ' | '), '') FROM json_each(new.names))
        WHERE rowid = new.rowid;
    END;
    CREATE TRIGGER species_fts_delete AFTER DELETE ON species BEGIN
      DELETE FROM species_fts WHERE rowid = old.rowid;
    END;
    """

    /// The dives and what they refer to.
    static let logbook = """
    -- Each file imported: what it was, to make importing it again add nothing.
    CREATE TABLE source_file (
      id INTEGER PRIMARY KEY,
      sha256 TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      format TEXT NOT NULL,
      generator TEXT,
      generator_version TEXT,
      size INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE trip (
      id TEXT PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      notes TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail))
    ) STRICT;

    CREATE TABLE person (
      id TEXT PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      email TEXT,
      phone TEXT,
      notes TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail))
    ) STRICT;

    CREATE TABLE gear (
      id TEXT PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      type TEXT,
      brand TEXT,
      serial TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail))
    ) STRICT;

    -- Courses, contacts, certifications, gear sets, service schedules and records, the diver:
    -- records a dive log may carry that the app does not query, kept whole as DiveJSON.
    CREATE TABLE logbook_record (
      kind TEXT NOT NULL,
      id TEXT NOT NULL,
      name TEXT,
      detail TEXT NOT NULL CHECK (json_valid(detail)),
      PRIMARY KEY (kind, id)
    ) STRICT, WITHOUT ROWID;

    -- date and start_time: the wall clock where the dive was made (YYYY-MM-DD, HH:MM:SS);
    -- utc_offset beside it when the source recorded one (+HH:MM). start_key: the wall clock in
    -- seconds since 1970-01-01, for ordering and finding the same dive from another source.
    -- status: new (imported), matched (placed at a site), unmatched (GPS, no site near),
    -- pending (neither site nor GPS).
    CREATE TABLE dive (
      id TEXT PRIMARY KEY NOT NULL,
      number INTEGER,
      site_id TEXT REFERENCES site(id) ON DELETE SET NULL,
      date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      start_time TEXT,
      utc_offset TEXT,
      start_key INTEGER,
      max_depth REAL CHECK (max_depth >= 0),
      avg_depth REAL CHECK (avg_depth >= 0),
      bottom_time INTEGER CHECK (bottom_time >= 0),
      water_temperature REAL,
      air_temperature REAL,
      visibility REAL,
      weight REAL,
      water_type TEXT,
      altitude INTEGER,
      current TEXT,
      waves TEXT,
      weather TEXT,
      entry_type TEXT,
      boat_name TEXT,
      entry_lat REAL, entry_lon REAL,
      exit_lat REAL, exit_lon REAL,
      type TEXT,
      rating INTEGER CHECK (rating BETWEEN 1 AND 5),
      tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
      notes TEXT,
      trip_id TEXT REFERENCES trip(id) ON DELETE SET NULL,
      status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'matched', 'unmatched', 'pending')),
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      CHECK (start_time IS NULL OR date IS NOT NULL)
    ) STRICT;
    CREATE INDEX dive_start ON dive(start_key);
    CREATE INDEX dive_site ON dive(site_id);
    CREATE INDEX dive_trip ON dive(trip_id);

    -- Where each dive came from: the file, the dive's place in it and its id there.
    CREATE TABLE dive_source (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
      record_index INTEGER NOT NULL,
      record_id TEXT,
      line INTEGER,
      PRIMARY KEY (source_file_id, record_index)
    ) STRICT;
    CREATE INDEX dive_source_dive ON dive_source(dive_id);

    CREATE TABLE cylinder (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      volume REAL,
      start_pressure REAL,
      end_pressure REAL,
      oxygen REAL CHECK (oxygen BETWEEN 0 AND 100),
      helium REAL CHECK (helium BETWEEN 0 AND 100),
      ppo2_limit REAL,
      gas_number INTEGER,
      role TEXT,
      usage TEXT,
      gear_id TEXT REFERENCES gear(id) ON DELETE SET NULL,
      gas_name TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      PRIMARY KEY (dive_id, position)
    ) STRICT, WITHOUT ROWID;

    -- One computer's (or one source's) record of a dive; samples holds its series compactly.
    CREATE TABLE recording (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      source_file_id INTEGER REFERENCES source_file(id) ON DELETE SET NULL,
      device_brand TEXT,
      device_model TEXT,
      device_serial TEXT,
      device_name TEXT,
      mode TEXT,
      sample_count INTEGER NOT NULL DEFAULT 0,
      samples BLOB,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      PRIMARY KEY (dive_id, position)
    ) STRICT;

    CREATE TABLE dive_person (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      person_id TEXT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
      role TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      PRIMARY KEY (dive_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX dive_person_person ON dive_person(person_id);

    CREATE TABLE dive_gear (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      gear_id TEXT NOT NULL REFERENCES gear(id) ON DELETE CASCADE,
      PRIMARY KEY (dive_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX dive_gear_gear ON dive_gear(gear_id);

    -- species_id: the species record the log named (kind log) or, after backfill, the
    -- catalog species it resolved to; logged_species_id keeps the log's own record.
    CREATE TABLE sighting (
      dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      species_id TEXT NOT NULL REFERENCES species(id) ON DELETE RESTRICT,
      logged_species_id TEXT REFERENCES species(id) ON DELETE SET NULL,
      count INTEGER CHECK (count >= 0),
      abundance TEXT,
      notes TEXT,
      detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
      PRIMARY KEY (dive_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX sighting_species ON sighting(species_id);
    """
}
