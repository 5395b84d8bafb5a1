#!/usr/bin/env python3
"""Makes Samples/pair/: the sample logbook's dives as a second dive computer worn on the same
dives would export them, as CSV, beside the UDDF. Its clock runs 2 min 40 s ahead, its
depth sensor reads 1.5 % deeper, it samples every 20 s, and it names no dive ids: the same
dives, which umilog import must recognise as duplicates.

    scripts/make-sample-pair.py   (needs a built umilog: swift build)
"""
import csv, io, shutil, subprocess, sys
from datetime import datetime, timedelta
from pathlib import Path

root = Path(__file__).resolve().parent.parent
out = root / "Samples" / "pair"
out.mkdir(parents=True, exist_ok=True)
shutil.copyfile(root / "Samples" / "logbook.uddf", out / "computer-a.uddf")
profile = subprocess.run([str(root / ".build/debug/umilog"), "convert", str(root / "Samples/logbook.uddf"),
                          "--to", "csv-profile", "-q"], check=True, capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(profile)))
buf = io.StringIO()
w = csv.writer(buf, lineterminator="\r\n")
w.writerow(["Dive #", "Date", "Time", "Sample time (s)", "Depth (m)", "Temperature (°C)", "Tank pressure (bar)"])
for r in rows:
    t = int(float(r["elapsed_s"]))
    if t % 20:
        continue
    start = datetime.fromisoformat(f"{r['date']}T{r['time']}") + timedelta(minutes=2, seconds=40)
    depth = round(float(r["depth_m"]) * 1.015, 1)
    w.writerow([r["dive_number"], start.strftime("%Y-%m-%d"), start.strftime("%H:%M:%S"), t, depth,
                r["temperature_c"], r.get("pressure_1_bar", "")])
(out / "computer-b.csv").write_text(buf.getvalue(), encoding="utf-8")
print(f"wrote {out}/computer-a.uddf and computer-b.csv ({sum(1 for _ in rows)} samples read)", file=sys.stderr)
