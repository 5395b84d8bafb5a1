#!/usr/bin/env python3
"""Prints what a FIT file states, read with the independent `fitdecode` package
(pip install fitdecode==0.11.0), to check umilog's FIT reader against: every message but the
records (or those named on the command line), the count of each message type, and the
records that carry a depth. Tests/DiveFITTests/FITReaderTests.swift pins values read this way.

usage: scripts/fit-facts.py FILE.fit [MESSAGE ...]   e.g. session lap dive_summary dive_gas
"""
import collections
import sys

import fitdecode

path = sys.argv[1]
wanted = set(sys.argv[2:])
counts = collections.Counter()
depths = 0
with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.WARN) as fit:
    for frame in fit:
        if isinstance(frame, fitdecode.FitHeader):
            print('header: protocol', frame.proto_ver, 'profile', frame.profile_ver)
        if isinstance(frame, fitdecode.FitDataMessage):
            counts[frame.name] += 1
            if frame.name == 'record' and any(f.def_num == 92 and f.value is not None for f in frame.fields):
                depths += 1
            if frame.name in wanted or (not wanted and frame.name != 'record'):
                print(frame.name, {f.name: f.value for f in frame.fields if f.value is not None})
print(dict(counts))
print('records with a depth:', depths)
