#!/usr/bin/env python3
"""Lists the public declarations of Swift sources that no `///` doc comment precedes.

Usage: scripts/undocumented-public.py DIR... [--list]
Prints "documented/total" per directory (attributes such as @discardableResult between the
comment and the declaration are skipped; a `public` extension or `public import` is no symbol).
"""
import re, sys, pathlib

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:nonisolated|final|static|class|override|mutating|convenience|required|indirect|@\w+)\s+)*public\s+(?:(?:static|class|final|override|mutating|nonisolated|convenience|required|indirect|private\(set\)|lazy)\s+)*(func|var|let|init|struct|class|enum|protocol|typealias|case|subscript|actor)\b')

def scan(directory):
    total, missing = 0, []
    for path in sorted(pathlib.Path(directory).rglob('*.swift')):
        lines = path.read_text().splitlines()
        for n, line in enumerate(lines):
            if not DECL.match(line):
                continue
            total += 1
            k = n - 1
            while k >= 0 and re.match(r'^\s*@\w+', lines[k]):
                k -= 1
            if k < 0 or not lines[k].strip().startswith('///'):
                missing.append(f'{path}:{n + 1}: {line.strip()}')
    return total, missing

if __name__ == '__main__':
    dirs = [a for a in sys.argv[1:] if not a.startswith('--')]
    status = 0
    for d in dirs:
        total, missing = scan(d)
        print(f'{d}: {total - len(missing)} of {total} public declarations documented')
        if '--list' in sys.argv:
            for m in missing:
                print('  ' + m)
        status |= bool(missing)
    sys.exit(status)
