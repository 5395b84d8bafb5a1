#!/usr/bin/env python3
"""Issue 21's targets from one run of scripts/bench.sh: prints them as a Markdown table and
writes every measured row, the targets and the 20,000-dive logbook's figures as one JSON file.

    targets.py ROWS.jsonl RESULTS.json BIG SMALL [LOGBOOK.json]

ROWS.jsonl holds one object per command bench.sh measured (id, label, bytes, seconds, peak_mb);
BIG and SMALL are the id prefixes of the large (756 MB) and small (38 MB) UDDF logbooks.
"""
import json
import sys

rows_path, out_path, big, small = sys.argv[1:5]
logbook_path = sys.argv[5] if len(sys.argv) > 5 else ""
rows = {}
for line in open(rows_path, encoding="utf-8"):
    if line.strip():
        row = json.loads(line)
        rows[row["id"]] = row


def seconds(key):
    row = rows.get(key)
    return row.get("seconds") if row else None


def peak(key):
    row = rows.get(key)
    return row.get("peak_mb") if row else None


# (job, what is measured, the floor or figure it is held against, the bound)
# A bound is a factor of the floor's seconds ("time"), or, for the reference converter, how
# many times faster umilog must be ("speed-up").
TARGETS = [
    ("convert → CSV", f"{big}.csv", f"{big}.sax2-floor", "time", 1.5),
    ("convert → DiveJSON", f"{big}.json", f"{big}.sax2-floor", "time", 1.5),
    ("convert → UDDF", f"{big}.uddf", f"{big}.sax2-floor", "time", 2.0),
    ("validate UDDF (XSD + model)", f"{big}.validate", f"{big}.xmllint-schema", "time", 1.0),
    ("validate the DiveJSON written", "divejson.validate", "divejson.csv", "time", 1.0),
    ("import into a new logbook", f"{big}.import", f"{big}.csv", "time", 1.2),
    ("import: beside SQLite storing the same rows", f"{big}.import", f"{big}.sqlite-floor", "time", None),
    ("38 MB to DiveJSON, against divejson-py", f"{small}.json", f"{small}.divejson-py", "speed-up", 100.0),
]
PEAK_MB = 64.0

targets = []
for job, key, floor, kind, bound in TARGETS:
    s, f = seconds(key), seconds(floor)
    entry = {"job": job, "id": key, "seconds": s, "peak_mb": peak(key), "floor": floor,
             "floor_label": rows.get(floor, {}).get("label"), "floor_seconds": f, "kind": kind, "bound": bound}
    if s is not None and f:
        entry["ratio"] = round(s / f, 2) if kind == "time" else round(f / s, 1)
        if bound is not None:
            entry["holds"] = entry["ratio"] <= bound if kind == "time" else entry["ratio"] >= bound
    targets.append(entry)

# Every umilog job on the large logbook, its DiveJSON and its profile CSV keeps flat memory.
memory = []
for key, row in rows.items():
    if "umilog" in row["label"] and row.get("peak_mb") is not None and row["bytes"] > 100e6:
        memory.append({"id": key, "label": row["label"], "peak_mb": row["peak_mb"], "holds": row["peak_mb"] <= PEAK_MB})

print("| job | seconds | peak MB | held against | its seconds | ratio | target | holds |")
print("| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |")
for t in targets:
    ratio = t.get("ratio")
    if t["kind"] == "time":
        target = f"≤ {t['bound']}×" if t["bound"] is not None else "(floor)"
        shown = f"{ratio}×" if ratio is not None else "n/a"
    else:
        target = f"≥ {t['bound']:.0f}× faster"
        shown = f"{ratio}× faster" if ratio is not None else "n/a"
    holds = {True: "yes", False: "**no**", None: ""}[t.get("holds")]
    fmt = lambda v, p: "n/a" if v is None else f"{v:.{p}f}"
    print(f"| {t['job']} | {fmt(t['seconds'], 3)} | {fmt(t['peak_mb'], 1)} | {t['floor_label'] or t['floor']} | {fmt(t['floor_seconds'], 3)} | {shown} | {target} | {holds} |")
worst = max(memory, key=lambda m: m["peak_mb"]) if memory else None
if worst:
    over = [m for m in memory if not m["holds"]]
    print(f"\nPeak RSS of every umilog job on an input over 100 MB: at most {worst['peak_mb']:.1f} MB ({worst['label']}); "
          + ("every one within 64 MB." if not over else f"**{len(over)} over 64 MB**: " + ", ".join(m["label"] for m in over)))

out = {"rows": list(rows.values()), "targets": targets, "memory": {"bound_mb": PEAK_MB, "jobs": memory}}
if logbook_path:
    try:
        out["logbook"] = json.load(open(logbook_path, encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"targets: the logbook figures could not be read ({e})", file=sys.stderr)
with open(out_path, "w", encoding="utf-8") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
