#!/usr/bin/env python3
"""Writes a synthetic Garmin FIT activity file of dives: the sample in Samples/ and the
benchmark input of scripts/bench.sh. No real device export may be shipped, so this writes the
messages a Descent writes, by the FIT protocol (little-endian definitions, a 14-byte header
with its CRC, the file CRC), from a fixed-seed generator: the same arguments give the same
bytes.

Each dive is one session of one lap (with a dive_summary for each), one record a second or
every INTERVAL seconds (time, depth, temperature, heart rate, NDL, CNS, next stop depth), a gas
switch; the file opens with file_id, device_info, dive_settings and three dive_gas slots (one
disabled) and closes with an activity stating a +09:00 local time.

usage: scripts/make-fit.py --dives N --duration MINUTES [--interval SECONDS] --out PATH
"""
import argparse
import struct

CRC_TABLE = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]


def crc16(data, crc=0):
    for byte in data:
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[byte & 0xF]
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[(byte >> 4) & 0xF]
    return crc


class Rng:
    """SplitMix64, as make-logbook uses."""
    def __init__(self, seed):
        self.s = seed

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self, lo, hi):
        return lo + (self.next() >> 11) * (hi - lo) / float(1 << 53)


# (local type, global number, [(field, size, base type, struct format)])
DEFS = {
    'file_id': (0, 0, [(0, 1, 0x00, 'B'), (1, 2, 0x84, 'H'), (3, 4, 0x8C, 'I'), (4, 4, 0x86, 'I'), (8, 20, 0x07, '20s')]),
    'device_info': (1, 23, [(253, 4, 0x86, 'I'), (0, 1, 0x02, 'B'), (2, 2, 0x84, 'H'), (3, 4, 0x8C, 'I'), (5, 2, 0x84, 'H')]),
    'dive_settings': (2, 258, [(254, 2, 0x84, 'H'), (1, 1, 0x00, 'B'), (2, 1, 0x02, 'B'), (3, 1, 0x02, 'B'), (4, 1, 0x00, 'B')]),
    'dive_gas': (3, 259, [(254, 2, 0x84, 'H'), (0, 1, 0x02, 'B'), (1, 1, 0x02, 'B'), (2, 1, 0x00, 'B')]),
    'record': (4, 20, [(253, 4, 0x86, 'I'), (92, 4, 0x86, 'I'), (13, 1, 0x01, 'b'), (3, 1, 0x02, 'B'),
                       (96, 4, 0x86, 'I'), (97, 1, 0x02, 'B'), (93, 4, 0x86, 'I')]),
    'event': (5, 21, [(253, 4, 0x86, 'I'), (0, 1, 0x00, 'B'), (1, 1, 0x00, 'B'), (3, 4, 0x86, 'I')]),
    'lap': (6, 19, [(253, 4, 0x86, 'I'), (254, 2, 0x84, 'H'), (2, 4, 0x86, 'I'), (7, 4, 0x86, 'I'), (39, 1, 0x00, 'B')]),
    'dive_summary': (7, 268, [(253, 4, 0x86, 'I'), (0, 2, 0x84, 'H'), (1, 2, 0x84, 'H'), (2, 4, 0x86, 'I'),
                              (3, 4, 0x86, 'I'), (11, 4, 0x86, 'I'), (5, 1, 0x02, 'B'), (6, 1, 0x02, 'B'), (9, 2, 0x84, 'H')]),
    'session': (8, 18, [(253, 4, 0x86, 'I'), (254, 2, 0x84, 'H'), (2, 4, 0x86, 'I'), (5, 1, 0x00, 'B'), (6, 1, 0x00, 'B'),
                        (7, 4, 0x86, 'I'), (141, 4, 0x86, 'I'), (156, 4, 0x86, 'I'), (3, 4, 0x85, 'i'), (4, 4, 0x85, 'i')]),
    'activity': (9, 34, [(253, 4, 0x86, 'I'), (1, 2, 0x84, 'H'), (5, 4, 0x86, 'I')]),
}


class Writer:
    def __init__(self, out):
        self.out = out
        self.crc = 0
        self.size = 0
        self.defined = set()

    def put(self, data):
        self.crc = crc16(data, self.crc)
        self.size += len(data)
        self.out.write(data)

    def message(self, name, *values):
        local, number, fields = DEFS[name]
        if name not in self.defined:
            self.defined.add(name)
            d = struct.pack('<BBBHB', 0x40 | local, 0, 0, number, len(fields))
            d += b''.join(struct.pack('<BBB', f, s, t) for f, s, t, _ in fields)
            self.put(d)
        self.put(struct.pack('<B' + ''.join(fmt for *_, fmt in fields), local, *values))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--dives', type=int, required=True)
    p.add_argument('--duration', type=int, required=True, help='minutes per dive')
    p.add_argument('--interval', type=int, default=1, help='seconds between records')
    p.add_argument('--out', required=True)
    p.add_argument('--seed', type=int, default=0x756D696C6F67)
    a = p.parse_args()
    rng = Rng(a.seed)
    body = open(a.out + '.body', 'wb')
    w = Writer(body)
    t = 1_083_492_000  # 2024-05-01T10:00:00Z in FIT seconds
    w.message('file_id', 4, 1, 1234567890, t, b'umilog synthetic')
    w.message('device_info', t, 0, 1, 1234567890, 1612)
    w.message('dive_settings', 0, 0, 40, 85, 1)
    w.message('dive_gas', 0, 0, 21, 1)
    w.message('dive_gas', 1, 0, 50, 1)
    w.message('dive_gas', 2, 0, 21, 0)
    for n in range(a.dives):
        start = t
        seconds = int(a.duration * 60 * rng.uniform(0.9, 1.1))
        deepest = rng.uniform(12, 40)
        descent, ascent = seconds * 0.1, seconds * 0.75
        w.message('event', start, 0, 0, 0)
        total, area, maximum = 0, 0.0, 0
        switched = False
        for s in range(0, seconds, a.interval):
            if s < descent:
                depth = deepest * s / descent
            elif s < ascent:
                depth = deepest * (1 - 0.3 * (s - descent) / (ascent - descent)) + rng.uniform(-0.3, 0.3)
            else:
                depth = max(0.0, deepest * 0.7 * (seconds - s) / (seconds - ascent) - 0.5)
            mm = max(0, int(depth * 1000))
            maximum = max(maximum, mm)
            if depth > 1.2:
                total += a.interval
                area += depth * a.interval
            ndl = max(0, int(3600 - depth * 60 - s / 4))
            w.message('record', start + s, mm, int(24 - depth / 4), 70 + int(rng.uniform(0, 20)), ndl,
                      min(100, 5 + s // 300), 3000 if ndl == 0 and depth > 4 else 0)
            if s >= ascent and not switched:
                switched = True
                w.message('event', start + s, 57, 3, 1)
        end = start + seconds
        w.message('event', end, 0, 4, 0)
        w.message('lap', end, n, start, seconds * 1000, 54)
        w.message('dive_summary', end, 19, n, int(area / max(total, 1) * 1000), maximum, total * 1000, 5, 12, 20)
        w.message('session', end, n, start, 53, 54, seconds * 1000, maximum, n + 1,
                  int(35.3 * 2**31 / 180), int(139.1 * 2**31 / 180))
        w.message('dive_summary', end, 18, n, int(area / max(total, 1) * 1000), maximum, total * 1000, 5, 12, 20)
        t = end + int(rng.uniform(3600, 7200))
    w.message('activity', t, a.dives, t + 9 * 3600)
    body.close()
    header = struct.pack('<BBHI4s', 14, 0x20, 2132, w.size, b'.FIT')
    header += struct.pack('<H', crc16(header))
    with open(a.out, 'wb') as out, open(a.out + '.body', 'rb') as b:
        out.write(header)
        while chunk := b.read(1 << 20):
            out.write(chunk)
        out.write(struct.pack('<H', w.crc))
    import os
    os.remove(a.out + '.body')


if __name__ == '__main__':
    main()
