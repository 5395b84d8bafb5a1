#!/usr/bin/env python3
"""Makes Samples/suunto-app.json: one invented dive as the Suunto app exports it from a Suunto
Ocean (the 2026 shape: no Header.Diving, cylinders known from gas switches and transmitter
slots), small enough to read by eye. Nothing in it comes from a real export.

It has what DiveJSON's docs/suunto-json-mapping.md reads from this shape, in the export's SI
units and habits: a DateTime with a fraction and an offset, DiveTime beside a longer Duration,
depths and Kelvin temperatures as separate entries, five transmitter slots of which only slot 0
reports (the others null), a switch to gas 0 and later to gas 1, a Ceiling of 0, a
TimeToSurface of 0 and a gf99 of -100 (the device's absent-markers), a safety stop and an
ascent-speed alarm, the route origin in degrees, and after surfacing fixes in radians each
with an EHPE entry beside it, the first poor; a transmitter reading after DiveTime has passed;
and members no dive log carries (battery, illuminance), which the reader reports.

    scripts/make-sample-suunto-app.py
"""
import json
import math
from datetime import datetime, timedelta, timezone
from pathlib import Path

root = Path(__file__).resolve().parent.parent
start = datetime(2025, 10, 4, 9, 12, 5, 250000, tzinfo=timezone(timedelta(hours=3)))
dive_time = 2700.6  # s in the water; the log runs on for 5 minutes at the surface


def at(seconds):
    """TimeISO8601 `seconds` after the start, milliseconds and offset as the app writes them."""
    t = start + timedelta(seconds=seconds)
    return t.isoformat(timespec="milliseconds")


def depth_at(s):
    """Down to 24 m in 2 min, a slow ascent along a reef, a safety stop at 5 m, then up."""
    if s <= 120:
        return 24.0 * s / 120
    if s <= 1500:
        return 24.0 - 8.0 * (s - 120) / 1380
    if s <= 2280:
        return 16.0 - 11.0 * (s - 1500) / 780
    if s <= 2460:
        return 5.0
    if s <= 2700:
        return 5.0 * (2700 - s) / 240
    return 0.0


def cylinders(pascal):
    return [{"GasNumber": 0, "GasTime": 3000, "Pressure": pascal, "Ventilation": 0.00017}] + [
        {"GasNumber": n, "GasTime": 0, "Pressure": None, "Ventilation": 0} for n in range(1, 5)]


samples = [
    {"DiveRouteOrigin": {"Altitude": 2, "Latitude": 27.287436, "Longitude": 33.835712},
     "DiveRouteQuality": 1, "TimeISO8601": at(0)},
    {"DiveEvents": {"GasSwitch": {"GasNumber": 0}}, "TimeISO8601": at(0.04)},
]
for s in range(0, 3000, 60):
    t = s + 0.8
    d = round(depth_at(t), 2)
    bar = 205.0 - 140.0 * min(s, 2700) / 2700
    samples.append({
        "AmbientIlluminance": 1200.5, "Ceiling": 0, "Cylinders": cylinders(round(bar * 100000)),
        "Depth": d, "NoDecTime": 6000 if d < 20 else 1800,
        "RtGradientFactors": {"gf99": -100, "gfLeadingTissue": 0, "gfSurface": round(d)},
        "TimeToSurface": 0 if s % 120 else round(d * 2), "TimeISO8601": at(t)})
    samples.append({"AbsPressure": 101325 + round(d * 10000), "Temperature": round(299.15 - d * 0.1, 2),
                    "TimeISO8601": at(s + 7.3)})
    if s % 600 == 0:
        samples.append({"BatteryCharge": 0.8, "BatteryVoltage": 3.9, "TimeISO8601": at(s + 9)})
samples += [
    {"DiveEvents": {"Alarm": {"Active": True, "Type": "Ascent Speed"}}, "TimeISO8601": at(1620.4)},
    {"DiveEvents": {"Alarm": {"Active": False, "Type": "Ascent Speed"}}, "TimeISO8601": at(1623.4)},
    {"DiveEvents": {"GasSwitch": {"GasNumber": 1}}, "TimeISO8601": at(2200.1)},
    {"DiveEvents": {"Notify": {"Active": True, "Type": "Safety Stop"}}, "TimeISO8601": at(2280.0)},
    {"DiveEvents": {"Notify": {"Active": False, "Type": "Safety Stop"}}, "TimeISO8601": at(2460.0)},
]
# After surfacing: the first fix states 24 m of error, the one 5 s later 8 m.
for k, (seconds, error, lat, lon) in enumerate([(2712, 24, 27.287512, 33.835950), (2717, 8, 27.287561, 33.835998)]):
    samples.append({"EHPE": error, "EVPE": error * 2, "NumberOfSatellites": 12, "TimeISO8601": at(seconds)})
    samples.append({"GPSAltitude": 0.4, "Latitude": math.radians(lat), "Longitude": math.radians(lon),
                    "TimeISO8601": at(seconds)})
# The events and fixes stay after the readings, out of time order, the way the export appends
# its separate streams: a reader orders samples by their own time.

document = {"DeviceLog": {
    "Header": {
        "ActivityType": 51,
        "DateTime": at(0),
        "Depth": {"Max": 24.0},
        "DepthAverage": 15.87,
        "Device": {"Info": {"HW": "Seal_RevA3", "SW": "2.51.28"}, "Name": "Suunto Ocean", "SerialNumber": "000000000000"},
        "DiveTime": dive_time,
        "Duration": 3000.9,
        "EPOC": 0,
        "Notes": "",
        "Temperature": {"Max": 296.8, "Min": 299.1},
    },
    "Samples": samples,
}}
out = root / "Samples" / "suunto-app.json"
# One sample a line, so the file reads by eye (the app writes it all on one line).
head = json.dumps(document["DeviceLog"]["Header"], separators=(", ", ": "))
body = ",\n".join("    " + json.dumps(e, separators=(", ", ": ")) for e in samples)
out.write_text('{"DeviceLog": {\n  "Header": ' + head + ',\n  "Samples": [\n' + body + "\n  ]\n}}\n")
print(f"wrote {out.relative_to(root)}: {len(samples)} samples")
