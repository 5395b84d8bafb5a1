-- The umilog logbook schema, as `umilog db init` creates it (migrations: v1-catalog, v1-logbook, v2-dive-source-uuid, v3-source-file-records, v4-dive-query-indexes).
-- Regenerate with scripts/update-goldens.sh; a test keeps it current.

CREATE TABLE area (
  id TEXT PRIMARY KEY NOT NULL,
  region_id TEXT NOT NULL REFERENCES region(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  country TEXT,
  min_lat REAL, max_lat REAL, min_lon REAL, max_lon REAL
) STRICT;

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

CREATE TABLE dive_gear (
  dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  gear_id TEXT NOT NULL REFERENCES gear(id) ON DELETE CASCADE,
  PRIMARY KEY (dive_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE dive_person (
  dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  person_id TEXT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
  role TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
  PRIMARY KEY (dive_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE dive_source (
  dive_id TEXT NOT NULL REFERENCES dive(id) ON DELETE CASCADE,
  source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
  record_index INTEGER NOT NULL,
  record_id TEXT,
  line INTEGER, source_uuid TEXT,
  PRIMARY KEY (source_file_id, record_index)
) STRICT;

CREATE TABLE gear (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  type TEXT,
  brand TEXT,
  serial TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail))
) STRICT;

CREATE TABLE list_state (
  site_id TEXT PRIMARY KEY NOT NULL REFERENCES site(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('visited', 'wishlist', 'planned'))
) STRICT;

CREATE TABLE logbook_record (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT,
  detail TEXT NOT NULL CHECK (json_valid(detail)),
  PRIMARY KEY (kind, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE person (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  email TEXT,
  phone TEXT,
  notes TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail))
) STRICT;

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

CREATE TABLE region (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  min_lat REAL, max_lat REAL, min_lon REAL, max_lon REAL,
  CHECK (min_lat IS NULL OR (min_lat <= max_lat AND min_lat >= -90 AND max_lat <= 90))
) STRICT;

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

CREATE TABLE site_alias (
  site_id TEXT NOT NULL REFERENCES site(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  alias TEXT NOT NULL,
  normalized TEXT NOT NULL,
  PRIMARY KEY (site_id, position)
) STRICT, WITHOUT ROWID;

CREATE VIRTUAL TABLE site_fts USING fts5(name, aliases, tokenize = 'unicode61 remove_diacritics 2');

CREATE VIRTUAL TABLE site_rtree USING rtree(rowid, min_lat, max_lat, min_lon, max_lon);

CREATE TABLE source_file (
  id INTEGER PRIMARY KEY,
  sha256 TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  generator TEXT,
  generator_version TEXT,
  size INTEGER NOT NULL
, records INTEGER) STRICT;

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

CREATE TABLE trip (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  notes TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail))
) STRICT;

CREATE INDEX area_region ON area(region_id);

CREATE INDEX dive_deepest ON dive(max_depth DESC, start_key);

CREATE INDEX dive_gear_gear ON dive_gear(gear_id);

CREATE INDEX dive_longest ON dive(bottom_time DESC, start_key);

CREATE INDEX dive_number ON dive(number);

CREATE INDEX dive_person_person ON dive_person(person_id);

CREATE INDEX dive_site ON dive(site_id);

CREATE INDEX dive_source_dive ON dive_source(dive_id);

CREATE INDEX dive_source_uuid ON dive_source(source_uuid);

CREATE INDEX dive_start ON dive(start_key);

CREATE INDEX dive_trip ON dive(trip_id);

CREATE INDEX sighting_species ON sighting(species_id);

CREATE INDEX site_alias_normalized ON site_alias(normalized);

CREATE INDEX site_area ON site(area_id);

CREATE INDEX site_canonical ON site(canonical_site_id);

CREATE INDEX site_lat_lon ON site(lat, lon);

CREATE TRIGGER site_alias_fts_delete AFTER DELETE ON site_alias BEGIN
  UPDATE site_fts SET aliases = coalesce((SELECT group_concat(alias, ' | ') FROM site_alias WHERE site_id = old.site_id), '')
    WHERE rowid = (SELECT rowid FROM site WHERE id = old.site_id);
END;

CREATE TRIGGER site_alias_fts_insert AFTER INSERT ON site_alias BEGIN
  UPDATE site_fts SET aliases = (SELECT group_concat(alias, ' | ') FROM site_alias WHERE site_id = new.site_id)
    WHERE rowid = (SELECT rowid FROM site WHERE id = new.site_id);
END;

