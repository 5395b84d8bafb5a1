#!/usr/bin/env python3
"""Makes Samples/suunto-dm3.SDE: a small Suunto Dive Manager 3 export with synthetic values,
written the way Dive Manager writes one (a zip of one XML document per dive, ISO-8859-15,
decimal commas, dd.mm.yyyy dates, SI units, eight gas slots, 0 for every empty field), so that
the repository has a DM3 file of its own (the shared corpus's may not be shipped).

    scripts/make-sample-dm3.py

Two dives, showing what the reader has to decide:
  0.xml  declares ISO-8859-15; a Vytec with a transmitter: nitrox 32 and a 50 % deco gas
         switched to at 36:40, a 12-litre cylinder, real (not straight-line) tank pressures,
         20 s samples, a bookmark, notes with CRLF and LF line ends and a euro sign.
  1.xml  declares no encoding and is not UTF-8 (the reader takes ISO-8859-15); a Vyper with no
         transmitter: air in an 80 cu ft cylinder rated 206,843 bar, and the straight line of
         pressures Dive Manager draws between a start and an end the diver typed in.
The zip is deterministic: fixed entry times, no extra fields.
"""
import zipfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
out = root / "Samples" / "suunto-dm3.SDE"


def comma(v, places=2):
    """A number as Dive Manager writes it: decimal comma, trailing zeros dropped."""
    text = f"{v:.{places}f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


def profile(interval, keypoints):
    """Depths every `interval` s, linear between (time, depth) keypoints."""
    samples = []
    end = keypoints[-1][0]
    for t in range(0, end + 1, interval):
        for (t0, d0), (t1, d1) in zip(keypoints, keypoints[1:]):
            if t0 <= t <= t1:
                samples.append((t, d0 + (d1 - d0) * (t - t0) / (t1 - t0)))
                break
    return samples


def gas_slots(mixes):
    """The eight slots as DM3 numbers them: O2PCT, HEPCT_0, MIXTYPE_0, O2PCT_2, HEPCT_1…"""
    lines = []
    for k in range(8):
        o2, he = mixes[k] if k < len(mixes) else (0, 0)
        lines.append(f"<{'O2PCT' if k == 0 else f'O2PCT_{k + 1}'}>{o2}</{'O2PCT' if k == 0 else f'O2PCT_{k + 1}'}>")
        lines.append(f"<HEPCT_{k}>{he}</HEPCT_{k}>")
        lines.append(f"<MIXTYPE_{k}>0</MIXTYPE_{k}>")
    return "\n".join(lines)


def document(declared, fields, mixes, gaschanges, samples):
    head = '<?xml version="1.0" encoding="ISO-8859-15" ?>\n' if declared else '<?xml version="1.0" ?>\n'
    body = "<SUUNTO><HEADER><MSGNAME>SDM001A</MSGNAME>\n<MSGPACKING>1</MSGPACKING>\n</HEADER>\n<MSG>"
    body += "\n".join(f"<{k}>{v}</{k}>" for k, v in fields) + "\n" + gas_slots(mixes) + "\n"
    for t, o2, he, depth in gaschanges:
        body += f"<GASCHANGE><MIXTIME>{t}</MIXTIME>\n<MIXVALUE>{o2}</MIXVALUE>\n<MIXHEVALUE>{he}</MIXHEVALUE>\n<MIXDEPTH>{comma(depth)}</MIXDEPTH>\n</GASCHANGE>\n"
    for s in samples:
        body += "<SAMPLE>" + "\n".join(f"<{k}>{v}</{k}>" for k, v in s) + "\n</SAMPLE>\n"
    body += "</MSG>\n</SUUNTO>\n"
    return (head + body).encode("iso-8859-15")


# Dive 1: Vytec, transmitter, two gases.
d1 = profile(20, [(0, 0), (160, 27.4), (1200, 24.1), (2200, 9.0), (2400, 6.0), (2700, 5.0), (2880, 0.6)])
p1 = [210_450 - int(t * 48.5 + (t % 180) * 3) for t, _ in d1]
s1 = []
for (t, d), p in zip(d1, p1):
    sample = [("SAMPLETIME", t), ("DEPTH", comma(d)), ("PRESSURE", p), ("TEMPERATURE", 24 if t in (0, 160, 1200) else 0),
              ("BOOKMARK", "Turtle" if t == 1400 else ""), ("SACRATE", comma(15.5 + t / 1000)), ("CYLPRESS", 0)]
    s1.append(sample)
dive1 = document(True, [
    ("WRISTOPID", 412307), ("SAMPLECNT", len(s1)), ("DATE", "14.09.2023"), ("TIME", "08:42:10"),
    ("MAXDEPTH", comma(27.4)), ("MEANDEPTH", comma(16.83)), ("SAMPLEINTERVAL", 20),
    ("LOGTITLE", "14.09.2023 08:42:10  "),
    ("LOGNOTES", "Drift along the canyon wall.\r\nTurtle at 25 m,\ncafé after: 4,50 € each."),
    ("FOLDER", ""), ("LOCATION", "Dahab, Egypt"), ("SITE", "The Canyon"), ("WEATHER", "sunny"),
    ("WATERVISIBILITY", 0), ("AIRTEMP", 31), ("WATERTEMPMAXDEPTH", 24), ("WATERTEMPATEND", 25),
    ("PARTNER", "Zoë Šmid"), ("DIVEMASTER", "Karim"), ("BOATNAME", ""), ("CYLINDERDESCRIPTION", "Steel 12"),
    ("CYLINDERSIZE", 12), ("CYLINDERUNITS", 0), ("CYLINDERWORKPRESSURE", 232000),
    ("CYLINDERSTARTPRESSURE", 210450), ("CYLINDERENDPRESSURE", p1[-1]),
    ("DIVENUMBER", 212), ("DCDIVENUMBER", 87), ("DIVESERIES", 1), ("DEVICEMODEL", "Vytec"), ("DIVETIMESEC", 2860),
    ("PERSONALINFO", "Suunto Diver"), ("GASMODE", 1), ("ALTMODE", 0), ("PMODE", 1), ("WATERVISIBILITYDESC", "20-25m"),
    ("SACRATE", 0), ("OLFPCT", 31), ("WEIGTH", comma(4)), ("HPTRANSMITTER", 1), ("SURFACETIME", 0), ("NOPROFILE", 0),
], [(32, 0), (50, 0)], [(0, 32, 0, 0), (2200, 50, 0, 9.0)], s1)

# Dive 2: Vyper, no transmitter, air, cubic feet, undeclared encoding.
d2 = profile(20, [(0, 0), (120, 14.2), (1500, 12.0), (1800, 5.0), (2000, 4.6), (2140, 0.9)])
start, end = 206_843, 68_948
p2 = [round(start + (end - start) * t / d2[-1][0]) for t, _ in d2]
s2 = [[("SAMPLETIME", t), ("DEPTH", comma(d)), ("PRESSURE", p), ("TEMPERATURE", 26 if t in (0, 120) else 0),
       ("BOOKMARK", ""), ("SACRATE", comma(18.2)), ("CYLPRESS", 0)] for (t, d), p in zip(d2, p2)]
dive2 = document(False, [
    ("WRISTOPID", 835562), ("SAMPLECNT", len(s2)), ("DATE", "14.09.2023"), ("TIME", "11:55:00"),
    ("MAXDEPTH", comma(14.2)), ("MEANDEPTH", comma(10.44)), ("SAMPLEINTERVAL", 20),
    ("LOGTITLE", "Eel garden"), ("LOGNOTES", "Garden eels, a crocodile fish.\r\nNo wind, calm."),
    ("LOCATION", "Dahab, Egypt"), ("SITE", "Eel Garden"), ("WEATHER", "windless"), ("AIRTEMP", 33),
    ("WATERTEMPMAXDEPTH", 26), ("PARTNER", "Zoë Šmid"), ("DIVEMASTER", ""), ("BOATNAME", ""),
    ("CYLINDERSIZE", 80), ("CYLINDERUNITS", 1), ("CYLINDERWORKPRESSURE", 206843),
    ("CYLINDERSTARTPRESSURE", 0), ("CYLINDERENDPRESSURE", 0),
    ("DIVENUMBER", 213), ("DCDIVENUMBER", 41), ("DEVICEMODEL", "Vyper"), ("DIVETIMESEC", 2120), ("PMODE", 0),
    ("WEIGTH", comma(5.45)), ("HPTRANSMITTER", 0), ("SURFACETIME", 11_930), ("NOPROFILE", 0),
], [(21, 0)], [(0, 21, 0, 0)], s2)

with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in [("0.xml", dive1), ("1.xml", dive2)]:
        info = zipfile.ZipInfo(name, date_time=(2023, 9, 14, 20, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 0
        z.writestr(info, data)
print(f"wrote {out.relative_to(root)} ({out.stat().st_size} bytes)")
