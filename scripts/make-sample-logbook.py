#!/usr/bin/env python3
"""Regenerate the hand-made UDDF sample logbook and the invalid inputs.

Writes (relative to the package root):

  Samples/logbook.uddf                         UDDF 3.2.2, five dives
  Samples/invalid/xml.doctype.uddf             internal DTD subset + entity
  Samples/invalid/xml.truncated.uddf           logbook.uddf cut mid-waypoint
  Samples/invalid/format.unknown-xml.xml       well-formed XML, not UDDF
  Samples/invalid/format.unknown.txt           plain prose

All data is invented for UmiLog. Output is deterministic: the only
"randomness" is a seeded generator for small depth wobbles, and no
current-time stamps are written. Validate with:

  xmllint --noout --schema uddf_3.2.2.xsd Samples/logbook.uddf

Units follow UDDF (SI): depth m, temperature K, pressure Pa, tank volume
m^3, time s, gas fractions 0..1.
"""

import os
import random
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "Samples")
INVALID = os.path.join(SAMPLES, "invalid")

NS = "http://www.streit.cc/uddf/3.2/"

MIX_AIR = "mix-air"
MIX_EAN50 = "mix-ean50"

SITES = [
    {
        "id": "site-shark-reef",
        "name": "Shark Reef, Ras Mohammed",
        "environment": "ocean-sea",
        "location": "Ras Mohammed National Park, South Sinai",
        "country": "Egypt",
        "lat": "27.7342",
        "lon": "34.2567",
        "maxdepth": "40",
    },
    {
        "id": "site-jackfish-alley",
        "name": "Jackfish Alley",
        "environment": "ocean-sea",
        "location": "Ras Mohammed National Park, South Sinai",
        "country": "Egypt",
        "lat": "27.7861",
        "lon": "34.2789",
        "maxdepth": "25",
    },
    {
        "id": "site-ras-umm-sid",
        "name": "Ras Umm Sid",
        "environment": "ocean-sea",
        "location": "Sharm el-Sheikh",
        "country": "Egypt",
        "lat": "27.8478",
        "lon": "34.3109",
        "maxdepth": "35",
    },
    {
        "id": "site-kaukajarvi",
        "name": "Kaukajärvi, Hervannan uimaranta",
        "environment": "lake-quarry",
        "location": "Tampere, Pirkanmaa",
        "country": "Finland",
        "lat": "61.4768",
        "lon": "23.8671",
        "altitude": "92",
        "maxdepth": "20",
    },
]


class Out:
    """Tiny indenting writer (two spaces, LF)."""

    def __init__(self):
        self.lines = []
        self.level = 0

    def open(self, tag, attrs=""):
        self.lines.append("  " * self.level + "<%s%s>" % (tag, attrs))
        self.level += 1

    def close(self, tag):
        self.level -= 1
        self.lines.append("  " * self.level + "</%s>" % tag)

    def leaf(self, tag, text, attrs=""):
        self.lines.append("  " * self.level + "<%s%s>%s</%s>" % (tag, attrs, escape(str(text)), tag))

    def empty(self, tag, attrs=""):
        self.lines.append("  " * self.level + "<%s%s/>" % (tag, attrs))

    def raw(self, line):
        self.lines.append(line)

    def text(self):
        return "\n".join(self.lines) + "\n"


def ref(r):
    return ' ref="%s"' % r


# ---------------------------------------------------------------- profiles

def interpolate(keypoints, t):
    for (t0, d0), (t1, d1) in zip(keypoints, keypoints[1:]):
        if t0 <= t <= t1:
            if t1 == t0:
                return d1
            return d0 + (d1 - d0) * (t - t0) / (t1 - t0)
    return keypoints[-1][1]


def make_depths(keypoints, step, rng, wobble):
    """Depth per waypoint, 0.1 m resolution, with a small seeded wobble."""
    end = keypoints[-1][0]
    times = list(range(0, end + 1, step))
    depths = []
    for t in times:
        d = interpolate(keypoints, t)
        if d > 1.0:
            d += (rng.random() - 0.5) * 2.0 * wobble
        d = max(0.0, round(d, 1))
        depths.append(d)
    return times, depths


def ambient_weighted_pressures(times, depths, i_from, i_to, p_begin, p_end):
    """Cylinder pressure falling from p_begin (at i_from) to p_end (at i_to),
    with consumption proportional to ambient pressure. Flat outside."""
    used = [0.0] * len(times)
    acc = 0.0
    for i in range(i_from + 1, i_to + 1):
        dt = times[i] - times[i - 1]
        amb = 1.0 + (depths[i] + depths[i - 1]) / 20.0
        acc += amb * dt
        used[i] = acc
    for i in range(i_to + 1, len(times)):
        used[i] = acc
    total = acc
    out = []
    for i in range(len(times)):
        if i <= i_from:
            out.append(p_begin)
        elif i >= i_to:
            out.append(p_end)
        else:
            p = p_begin - (p_begin - p_end) * used[i] / total
            out.append(int(round(p / 10000.0)) * 10000)
    return out


def average_depth(times, depths):
    area = 0.0
    for i in range(1, len(times)):
        area += (depths[i] + depths[i - 1]) / 2.0 * (times[i] - times[i - 1])
    return round(area / (times[-1] - times[0]), 1)


def sea_temperature(d):
    # Red Sea in March: ~25.5 C at the surface, ~24 C at 28 m.
    return max(297.15, round(298.65 - 0.055 * d, 2))


def lake_temperature(d, surface):
    # Finnish lake in August: warm epilimnion, thermocline 4-10 m, cold below.
    if d <= 4.0:
        t = surface
    elif d <= 10.0:
        t = surface - (surface - 281.65) * (d - 4.0) / 6.0
    else:
        t = 281.65 - 0.1 * min(d - 10.0, 5.0)
    return round(t, 2)


# ---------------------------------------------------------------- dives

def build_dives():
    rng = random.Random(20240302)
    dives = []

    # Dive 1: Shark Reef, two cylinders, switch to EAN50 at the 6 m stop.
    kp1 = [
        (0, 0.0), (30, 6.0), (180, 27.6), (420, 28.2), (600, 27.0),
        (780, 22.0), (1200, 21.5), (1380, 16.0), (1800, 15.5),
        (1980, 12.0), (2200, 11.0), (2340, 6.0), (2520, 5.6),
        (2660, 0.3), (2670, 0.0), (2700, 0.0),
    ]
    t1, d1 = make_depths(kp1, 10, rng, 0.25)
    # keep the stop tidy: 6.0 on arrival, 5.5..6.0 while hanging
    stop_from, stop_to = t1.index(2340), t1.index(2520)
    for i in range(stop_from, stop_to + 1):
        d1[i] = min(6.0, max(5.5, d1[i]))
    i_switch = stop_from
    d1[i_switch] = 6.0
    last = len(t1) - 1
    air1 = ambient_weighted_pressures(t1, d1, 0, i_switch, 20000000, 7000000)
    ean1 = ambient_weighted_pressures(t1, d1, i_switch, last, 20000000, 15000000)
    wps = []
    for i, (t, d) in enumerate(zip(t1, d1)):
        wp = {"depth": d, "divetime": t,
              "tankpressure": [(MIX_AIR, air1[i]), (MIX_EAN50, ean1[i])]}
        if i == 0:
            wp["switchmix"] = MIX_AIR
        if i == i_switch:
            wp["switchmix"] = MIX_EAN50
        if i == i_switch + 1:
            wp["setmarker"] = "safety_stop"
        if i % 3 == 0:
            wp["temperature"] = sea_temperature(d)
        wps.append(wp)
    dives.append({
        "id": "dive-1", "number": 1, "datetime": "2024-03-02T09:15:00+02:00",
        "links": ["site-shark-reef", "buddy-leila"],
        "airtemperature": 296.15,
        "tanks": [(MIX_AIR, "0.012", 20000000, 7000000),
                  (MIX_EAN50, "0.007", 20000000, 15000000)],
        "waypoints": wps,
        "after": {
            "visibility": 25,
            "duration": 2680,
            "notes": ["Drift along the wall from Shark Reef to the Yolanda "
                      "wreck site. Large school of barracuda at 25 m.",
                      "Switched to EAN50 at the 6 m stop."],
        },
    })

    # Dive 2: Jackfish Alley, single air cylinder, 20 s samples.
    kp2 = [
        (0, 0.0), (40, 5.0), (160, 17.0), (420, 18.4), (700, 17.2),
        (900, 14.0), (1500, 12.5), (2100, 10.0), (2500, 7.0),
        (2640, 5.0), (2820, 5.0), (2960, 0.4), (2980, 0.0), (3000, 0.0),
    ]
    t2, d2 = make_depths(kp2, 20, rng, 0.3)
    air2 = ambient_weighted_pressures(t2, d2, 0, len(t2) - 1, 20000000, 6500000)
    wps = []
    for i, (t, d) in enumerate(zip(t2, d2)):
        wp = {"depth": d, "divetime": t, "tankpressure": [(MIX_AIR, air2[i])],
              "temperature": sea_temperature(d)}
        if i == 0:
            wp["switchmix"] = MIX_AIR
        wps.append(wp)
    dives.append({
        "id": "dive-2", "number": 2, "datetime": "2024-03-02T14:05:00",
        "links": ["site-jackfish-alley", "buddy-leila", "buddy-mikko"],
        "airtemperature": 298.15,
        "tanks": [(MIX_AIR, "0.012", 20000000, 6500000)],
        "waypoints": wps,
        "after": {
            "visibility": 20,
            "duration": 2975,
            "notes": ["Through the cave swim-through and out over the "
                      "sandy plateau. Blue-spotted rays everywhere."],
        },
    })

    # Dive 3: no profile at all (computer left on the boat).
    dives.append({
        "id": "dive-3", "number": 3, "datetime": "2024-03-03T10:30:00+02:00",
        "links": ["site-ras-umm-sid"],
        "tanks": [(MIX_AIR, "0.0111", 20000000, 5500000)],
        "waypoints": None,
        "after": {
            "greatestdepth": 21.3,
            "duration": 2820,
            "notes": ["Computer stayed on the boat; depth and time from "
                      "the buddy's slate. Gorgonian forest at 18 m."],
        },
    })

    # Dive 4: Kaukajärvi, local time without offset.
    kp4 = [
        (0, 0.0), (30, 2.0), (150, 9.0), (300, 14.2), (540, 13.5),
        (900, 9.5), (1260, 6.0), (1500, 4.5), (1680, 4.0),
        (1760, 0.3), (1770, 0.0), (1800, 0.0),
    ]
    t4, d4 = make_depths(kp4, 30, rng, 0.2)
    air4 = ambient_weighted_pressures(t4, d4, 0, len(t4) - 1, 20000000, 9000000)
    wps = []
    for i, (t, d) in enumerate(zip(t4, d4)):
        wps.append({"depth": d, "divetime": t, "tankpressure": [(MIX_AIR, air4[i])],
                    "temperature": lake_temperature(d, 292.65)})
    dives.append({
        "id": "dive-4", "number": 4, "datetime": "2024-08-10T11:20:00",
        "links": ["site-kaukajarvi", "buddy-mikko"],
        "airtemperature": 293.15,
        "tanks": [(MIX_AIR, "0.012", 20000000, 9000000)],
        "waypoints": wps,
        "after": {
            "visibility": 4,
            "duration": 1775,
            "notes": ["Checkout dive in the drysuit. Thermocline at about 6 m."],
        },
    })

    # Dive 5: Kaukajärvi again, with an offset; note with CSV-hostile text.
    kp5 = [
        (0, 0.0), (30, 2.5), (120, 8.0), (240, 11.6), (600, 10.5),
        (900, 7.0), (1200, 5.0), (1380, 4.0), (1460, 0.3), (1470, 0.0),
        (1500, 0.0),
    ]
    t5, d5 = make_depths(kp5, 30, rng, 0.2)
    wps = []
    for i, (t, d) in enumerate(zip(t5, d5)):
        wps.append({"depth": d, "divetime": t,
                    "temperature": lake_temperature(d, 292.95)})
    dives.append({
        "id": "dive-5", "number": 5, "datetime": "2024-08-10T14:45:00+03:00",
        "links": ["site-kaukajarvi", "buddy-mikko"],
        "airtemperature": 294.15,
        "tanks": [(MIX_AIR, "0.012", 19000000, 11000000)],
        "waypoints": wps,
        "after": {
            "visibility": 3,
            "duration": 1465,
            "notes": ['Cold, "green" water\nSaw a pike.'],
        },
    })
    return dives


# ---------------------------------------------------------------- writer

def write_dive(o, dive):
    o.open("dive", ' id="%s"' % dive["id"])
    o.open("informationbeforedive")
    for r in dive["links"]:
        o.empty("link", ref(r))
    o.leaf("divenumber", dive["number"])
    o.leaf("datetime", dive["datetime"])
    if "airtemperature" in dive:
        o.leaf("airtemperature", "%.2f" % dive["airtemperature"])
    o.leaf("apparatus", "open-scuba")
    o.close("informationbeforedive")

    for mix, volume, p_begin, p_end in dive["tanks"]:
        o.open("tankdata")
        o.empty("link", ref(mix))
        o.leaf("tankvolume", volume)
        o.leaf("tankpressurebegin", p_begin)
        o.leaf("tankpressureend", p_end)
        o.close("tankdata")

    after = dict(dive["after"])
    wps = dive["waypoints"]
    if wps is not None:
        o.open("samples")
        for wp in wps:
            # element order as in waypointType
            o.open("waypoint")
            o.leaf("depth", "%.1f" % wp["depth"])
            o.leaf("divetime", wp["divetime"])
            if "setmarker" in wp:
                o.leaf("setmarker", wp["setmarker"])
            if "switchmix" in wp:
                o.empty("switchmix", ref(wp["switchmix"]))
            for mix, p in wp.get("tankpressure", []):
                o.leaf("tankpressure", p, ref(mix))
            if "temperature" in wp:
                o.leaf("temperature", "%.2f" % wp["temperature"])
            o.close("waypoint")
        o.close("samples")
        depths = [wp["depth"] for wp in wps]
        times = [wp["divetime"] for wp in wps]
        temps = [wp["temperature"] for wp in wps if "temperature" in wp]
        after["greatestdepth"] = max(depths)
        after["averagedepth"] = average_depth(times, depths)
        if temps:
            after["lowesttemperature"] = min(temps)

    o.open("informationafterdive")
    if "lowesttemperature" in after:
        o.leaf("lowesttemperature", "%.2f" % after["lowesttemperature"])
    o.leaf("greatestdepth", "%.1f" % after["greatestdepth"])
    if "visibility" in after:
        o.leaf("visibility", after["visibility"])
    o.open("notes")
    for para in after["notes"]:
        o.leaf("para", para)
    o.close("notes")
    o.leaf("diveduration", after["duration"])
    if "averagedepth" in after:
        o.leaf("averagedepth", "%.1f" % after["averagedepth"])
    o.close("informationafterdive")
    o.close("dive")


def write_person(o, tag, pid, first, last, extra=None):
    o.open(tag, ' id="%s"' % pid)
    o.open("personal")
    o.leaf("firstname", first)
    o.leaf("lastname", last)
    o.close("personal")
    if extra:
        o.open("address")
        o.leaf("city", extra[0])
        o.leaf("country", extra[1])
        o.close("address")
    o.close(tag)


def build_logbook():
    o = Out()
    o.raw('<?xml version="1.0" encoding="UTF-8"?>')
    o.open("uddf", ' xmlns="%s" version="3.2.2"' % NS)

    o.open("generator")
    o.leaf("name", "UmiLog Samples")
    o.leaf("type", "logbook")
    o.leaf("version", "1.0")
    o.leaf("datetime", "2024-08-12T20:00:00")
    o.close("generator")

    o.open("diver")
    write_person(o, "owner", "owner", "Sofia", "Marchetti", ("Trieste", "Italy"))
    write_person(o, "buddy", "buddy-leila", "Leila", "Haddad")
    write_person(o, "buddy", "buddy-mikko", "Mikko", "Virtanen")
    o.close("diver")

    o.open("divesite")
    for s in SITES:
        o.open("site", ' id="%s"' % s["id"])
        o.leaf("name", s["name"])
        o.leaf("environment", s["environment"])
        o.open("geography")
        o.leaf("location", s["location"])
        o.open("address")
        o.leaf("country", s["country"])
        o.close("address")
        o.leaf("latitude", s["lat"])
        o.leaf("longitude", s["lon"])
        if "altitude" in s:
            o.leaf("altitude", s["altitude"])
        o.close("geography")
        o.open("sitedata")
        o.leaf("maximumdepth", s["maxdepth"])
        o.close("sitedata")
        o.close("site")
    o.close("divesite")

    o.open("gasdefinitions")
    for mid, name, o2 in ((MIX_AIR, "Air", "0.21"), (MIX_EAN50, "EAN50", "0.50")):
        o.open("mix", ' id="%s"' % mid)
        o.leaf("name", name)
        o.leaf("o2", o2)
        o.leaf("he", "0")
        o.close("mix")
    o.close("gasdefinitions")

    dives = build_dives()
    o.open("profiledata")
    o.open("repetitiongroup", ' id="rg-sinai-2024"')
    for dive in dives[:3]:
        write_dive(o, dive)
    o.close("repetitiongroup")
    o.open("repetitiongroup", ' id="rg-kaukajarvi-2024"')
    for dive in dives[3:]:
        write_dive(o, dive)
    o.close("repetitiongroup")
    o.close("profiledata")

    o.close("uddf")
    return o.text()


# ---------------------------------------------------------------- invalid files

DOCTYPE_UDDF = """<?xml version="1.0"?>
<!DOCTYPE uddf [ <!ENTITY x "boom"> ]>
<uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
  <generator>
    <name>UmiLog &x;</name>
    <version>1.0</version>
  </generator>
</uddf>
"""

UNKNOWN_XML = """<?xml version="1.0" encoding="UTF-8"?>
<pocketnotes version="2">
  <owner>Sofia Marchetti</owner>
  <entry number="1" date="2024-03-02" start="09:15">
    <place>Shark Reef</place>
    <maxdepth unit="m">28.2</maxdepth>
    <runtime unit="min">45</runtime>
  </entry>
  <entry number="2" date="2024-03-02" start="14:05">
    <place>Jackfish Alley</place>
    <maxdepth unit="m">18.5</maxdepth>
    <runtime unit="min">50</runtime>
  </entry>
</pocketnotes>
"""

UNKNOWN_TXT = """Notes from the Sinai trip in March 2024
We dived Shark Reef in the morning and Jackfish Alley after lunch.
The water was about twenty five degrees and very clear.
Next time bring a spare mask strap and more sunscreen.
"""


def truncated_copy(data):
    """First ~60% of the logbook, cut inside a waypoint's <depth> value."""
    cut = int(len(data) * 0.6)
    start = data.index(b"<waypoint>", cut)
    depth = data.index(b"<depth>", start) + len(b"<depth>")
    return data[: depth + 1]


def write(path, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def main():
    os.makedirs(INVALID, exist_ok=True)
    logbook = build_logbook().encode("utf-8")
    write(os.path.join(SAMPLES, "logbook.uddf"), logbook)
    write(os.path.join(INVALID, "xml.doctype.uddf"), DOCTYPE_UDDF)
    write(os.path.join(INVALID, "xml.truncated.uddf"), truncated_copy(logbook))
    write(os.path.join(INVALID, "format.unknown-xml.xml"), UNKNOWN_XML)
    write(os.path.join(INVALID, "format.unknown.txt"), UNKNOWN_TXT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
