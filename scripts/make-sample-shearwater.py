#!/usr/bin/env python3
"""Regenerate the two small Shearwater samples.

Writes (relative to the package root):

  Samples/shearwater.xml        Shearwater Desktop/Cloud XML export, one open-circuit dive
  Samples/shearwater-cloud.db   Shearwater Cloud database export (SQLite), two dives

All data is invented for UmiLog; no byte of a real export is copied. The layouts follow what
public readers document: the XML export's elements (`<dive version="3"><diveLog>` with one
`<diveLogRecord>` per sample), and the database's `dive_details` and `log_data` tables, whose
`data_bytes_1` holds a four-byte little-endian length and then the computer's own log
gzip-compressed, in the Petrel Native Format that libdivecomputer's Shearwater parser reads
(32-byte records: opening 0x10-0x17, dive samples 0x01, closing 0x20-0x24, final 0xFF; numbers
big-endian). See docs/shearwater-mapping.md for what umilog reads from each.

The XML reproduces the export's own quirks on purpose: an `encoding="utf-16"` declaration over
ASCII bytes, a US 12-hour start date, and transmitter states ("AI is off") in numeric fields.

Output is deterministic for a given SQLite version: gzip is written with no timestamp and no
current-time stamp is stored. Uses only the standard library (sqlite3, gzip, struct):

  python3 scripts/make-sample-shearwater.py
"""

import gzip
import os
import sqlite3
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "Samples")


# ---------------------------------------------------------------- the XML export

def depth_at(t, bottom, minutes):
    """A plain square-ish profile: descend at 18 m/min, stay, ascend at 9 m/min with a stop."""
    total = minutes * 60
    down = bottom / 18 * 60
    up_start = total - (bottom / 9 * 60) - 180
    if t <= down:
        return bottom * t / down
    if t <= up_start:
        return bottom - 0.4 * ((t // 60) % 3)
    if t >= total - 60:
        return max(0.0, 5.0 * (total - t) / 60)
    if t >= total - 240:
        return 5.0
    return max(5.0, bottom - (t - up_start) * 9 / 60)


def xml_sample():
    records = []
    minutes = 24
    for i in range(0, minutes * 2 + 1):
        t = i * 30
        d = round(depth_at(t, 18.0, minutes), 1)
        o2 = "0.5" if t >= minutes * 60 - 240 else "0.21"   # the deco gas for the stop
        psi = 3000 - int(t * 1.1)
        records.append(f"""      <diveLogRecord>
        <currentTime>{t * 1000}</currentTime>
        <currentDepth>{d}</currentDepth>
        <firstStopDepth>0</firstStopDepth>
        <ttsMins>{1 if d < 6 else 2}</ttsMins>
        <averagePPO2>{round(float(o2) * (1 + d / 10), 2)}</averagePPO2>
        <fractionO2>{o2}</fractionO2>
        <fractionHe>0</fractionHe>
        <firstStopTime>0</firstStopTime>
        <currentNdl>{99 if d < 10 else max(0, 60 - t // 60)}</currentNdl>
        <currentCircuitSetting>OC/BO</currentCircuitSetting>
        <currentCcrModeSettings>0</currentCcrModeSettings>
        <waterTemp>{26 if d < 10 else 25}</waterTemp>
        <gasSwitchNeeded>false</gasSwitchNeeded>
        <externalPPO2>0</externalPPO2>
        <setPointType>0</setPointType>
        <circuitSwitchType>0</circuitSwitchType>
        <sensor1Millivolts>0</sensor1Millivolts>
        <sensor2Millivolts>0</sensor2Millivolts>
        <sensor3Millivolts>0</sensor3Millivolts>
        <batteryVoltage>1.52</batteryVoltage>
        <tank0pressurePSI>{psi}</tank0pressurePSI>
        <tank1pressurePSI>AI is off</tank1pressurePSI>
        <tank2pressurePSI>AI is off</tank2pressurePSI>
        <tank3pressurePSI>AI is off</tank3pressurePSI>
        <gasTime>{max(0, 90 - t // 60)}</gasTime>
        <sac>14.2</sac>
        <sad>0</sad>
      </diveLogRecord>""")
    return f"""<?xml version="1.0" encoding="utf-16"?>
<dive xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="3">
  <diveLog>
    <number>42</number>
    <gfMin>40</gfMin>
    <gfMax>85</gfMax>
    <surfaceMins>95</surfaceMins>
    <imperialUnits>false</imperialUnits>
    <startBatteryVoltage>1.55</startBatteryVoltage>
    <startCns>3</startCns>
    <startDate>6/14/2025 2:05:30 PM</startDate>
    <startO2SensorStatus>false</startO2SensorStatus>
    <startLowSetPoint>0</startLowSetPoint>
    <startHighSetPoint>0</startHighSetPoint>
    <computerFirmware>5A</computerFirmware>
    <maxDepth>18</maxDepth>
    <maxTime>{minutes * 60}</maxTime>
    <errorHistory />
    <endBatteryVoltage>1.52</endBatteryVoltage>
    <endCns>9</endCns>
    <endDate>6/14/2025 2:29:30 PM</endDate>
    <endO2SensorStatus>false</endO2SensorStatus>
    <endLowSetPoint>0</endLowSetPoint>
    <endHighSetPoint>0</endHighSetPoint>
    <computerSerial>5EA0C1D2</computerSerial>
    <computerSoftwareVersion>5A</computerSoftwareVersion>
    <computerModel>0</computerModel>
    <logVersion>13</logVersion>
    <decoModel>0</decoModel>
    <vpmbConservatism>0</vpmbConservatism>
    <startSurfacePressure>1011</startSurfacePressure>
    <endSurfacePressure>1012</endSurfacePressure>
    <sensorDisplay>0</sensorDisplay>
    <product>7</product>
    <features>0</features>
    <diveLogRecords>
{chr(10).join(records)}
    </diveLogRecords>
  </diveLog>
</dive>
"""


# ---------------------------------------------------------------- the database export

def record(kind, fields=None):
    """One 32-byte PNF record: the type byte, then `fields` {offset: bytes}."""
    r = bytearray(32)
    r[0] = kind
    for offset, value in (fields or {}).items():
        r[offset:offset + len(value)] = value
    return bytes(r)


def u16(v):
    return struct.pack(">H", v)


def pnf_log(start_ticks, samples, ccr, o2, he, tanks):
    """A PNF log: the opening records, one dive sample (0x01) per `samples` depth (m) every 10 s,
    the closing records and the final one. `tanks`: start psi of transmitters 1 and 2 (or None)."""
    gases_o2 = [o2, 50, 0, 0, 0, o2, 0, 0, 0, 0]
    out = [
        record(0x10, {4: bytes([40]), 5: bytes([85]), 8: bytes([0]), 12: struct.pack(">I", start_ticks),
                      20: bytes(gases_o2), 30: bytes([he, 0])}),
        record(0x11, {16: u16(1010)}),
        record(0x12, {18: bytes([0]), 19: bytes([0])}),
        record(0x13, {3: u16(1030)}),
        record(0x14, {16: bytes([13]), 17: u16(0b100001 if ccr else 0b11), 28: bytes([5])}),
        record(0x15, {23: u16(10000)}),
        record(0x16, {19: bytes([1]), 20: b"T1", 22: bytes([1 if tanks[1] else 0]), 23: b"T2"}),
        record(0x17),
    ]
    for i, d in enumerate(samples):
        t = (i + 1) * 10
        fields = {
            1: u16(round(d * 10)),            # depth, tenths of a metre
            3: u16(0),                        # no deco stop
            5: u16(1 if d < 6 else 3),        # TTS, minutes
            7: bytes([120 if ccr else round(o2 * (1 + d / 10))]),  # ppO2, hundredths (read on CC only)
            8: bytes([o2]), 9: bytes([he]),   # the gas breathed, percent
            10: bytes([99]),                  # NDL, minutes
            12: bytes([0x00 if ccr else 0x10]),  # status: 0x10 is open circuit
            14: bytes([24]),                  # water temperature, °C
            19: bytes([120 if ccr else 0]),   # setpoint, hundredths (not read)
            20: u16(0xFFFF if not tanks[1] else (tanks[1] - t) // 2),  # transmitter 2, 2 psi steps
            23: bytes([min(99, 2 + i // 6)]),  # CNS, percent
            28: u16(0xFFFF if not tanks[0] else (tanks[0] - t * 2) // 2),  # transmitter 1
        }
        out.append(record(0x01, fields))
    deepest = max(samples)
    out.append(record(0x20, {4: u16(round(deepest * 10)), 6: struct.pack(">I", len(samples) * 10)[1:]}))
    out += [record(k) for k in (0x21, 0x22, 0x23, 0x24)]
    out.append(record(0xFF))
    return b"".join(out)


def cell(raw):
    """A `log_data.data_bytes_1` cell: the length, little-endian, then the log gzip-compressed."""
    return struct.pack("<I", len(raw)) + gzip.compress(raw, mtime=0)


DIVE_DETAILS = """CREATE TABLE "dive_details"("DiveId" varchar primary key not null, "DataVersion" bigint,
 "FileName" varchar, "LastModified" datetime, "MainTimestampReliable" varchar, "DiveDate" datetime,
 "Depth" varchar, "SerialNumber" varchar, "AverageDepth" float, "AverageTemp" float, "MinTemp" float,
 "MaxTemp" float, "EndGF99" float, "DiveLengthTime" varchar, "Location" varchar, "Site" varchar,
 "Buddy" varchar, "DateAndTime" varchar, "DiveNumber" varchar, "Environment" varchar, "Visibility" varchar,
 "Weather" varchar, "Tank1PressureStart" varchar, "Tank1PressureEnd" varchar, "Notes" varchar)"""

LOG_DATA = """CREATE TABLE "log_data"("log_id" varchar primary key not null, "table_version" bigint,
 "created_unixtime" bigint, "modified_unixtime" bigint, "file_name" varchar, "format" varchar,
 "format_version" integer, "calculated_values_from_samples" varchar, "data_bytes_1" blob,
 "data_bytes_2" blob, "data_bytes_3" blob, "data_bytes_4" blob)"""


def database(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute(DIVE_DETAILS)
    db.execute(LOG_DATA)
    db.execute('CREATE TABLE "SWC_TableVersion"("TableName" varchar, "Version" integer)')
    db.execute("INSERT INTO SWC_TableVersion VALUES ('dive_details', 12)")

    # Dive 1: open circuit on air, transmitter 1 on the back gas; 2025-06-14 09:12:00.
    oc = [min(22.0, 1.5 * (i + 1)) if i < 50 else max(0.0, 22.0 - 0.9 * (i - 50)) for i in range(75)]
    # Dive 2: closed circuit on an air diluent, no transmitter; 2025-06-15 10:40:00.
    cc = [min(30.0, 2.0 * (i + 1)) if i < 60 else max(0.0, 30.0 - 0.8 * (i - 60)) for i in range(98)]
    dives = [
        ("1749892320001", "2025-06-14 09:12:00", oc, False, 21, 0, (3000, None), 1749892320,
         "Red Rock", "Ann Example", "Sunny", "3000", "2850", "Teric[5EA0C1D2]#101 2025-6-14 9-12-0.swlogzp"),
        ("1749984000002", "2025-06-15 10:40:00", cc, True, 21, 0, (None, None), 1749984000,
         "Red Rock", None, None, None, None, "Petrel 3[5EA0C1D2]#102 2025-6-15 10-40-0.swlogzp"),
    ]
    for n, (dive_id, date, samples, ccr, o2, he, tanks, ticks, site, buddy, weather, t1s, t1e, name) in enumerate(dives):
        deepest = max(samples)
        db.execute("INSERT INTO dive_details (DiveId, DiveDate, Depth, SerialNumber, DiveLengthTime, Site, Buddy, "
                   "DiveNumber, Weather, Tank1PressureStart, Tank1PressureEnd, Notes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (dive_id, date, str(deepest), "5EA0C1D2", str(len(samples) * 10), site, buddy, str(101 + n),
                    weather, t1s, t1e, "Invented for UmiLog's samples."))
        db.execute("INSERT INTO log_data (log_id, file_name, format, format_version, data_bytes_1) VALUES (?,?,?,?,?)",
                   (dive_id, name, "sw-pnf", 0, cell(pnf_log(ticks, samples, ccr, o2, he, tanks))))
    db.commit()
    db.execute("VACUUM")
    db.close()


def main():
    with open(os.path.join(SAMPLES, "shearwater.xml"), "w", encoding="ascii", newline="\n") as f:
        f.write(xml_sample())
    database(os.path.join(SAMPLES, "shearwater-cloud.db"))


if __name__ == "__main__":
    main()
