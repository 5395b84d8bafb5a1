#!/usr/bin/env python3
"""Mutation smoke test: random bit flips, truncations and inserted/deleted/duplicated bytes of
the given dive-log files, each run through `umilog convert --to json`; any exit other than
0-2, a signal or a Swift fatal error is kept in OUT as crashN.<ext> and printed.
Usage: N=150 UMILOG=.build/release/umilog scripts/mutate-smoke.py FILE[,FILE...] [SEED]
"""
import random, subprocess, sys, os, tempfile
random.seed(int(sys.argv[2]) if len(sys.argv)>2 else 1)
files=sys.argv[1].split(',')
bad=0; n=0
OUT=os.environ.get('OUT') or tempfile.mkdtemp(prefix='umilog-mutate-')
for it in range(int(os.environ.get('N','60'))):
    f=random.choice(files); data=bytearray(open(f,'rb').read())
    op=random.choice(['flip','trunc','dup','del','ins'])
    for _ in range(random.randint(1,8)):
        if not data: break
        i=random.randrange(len(data))
        if op=='flip': data[i]=random.randrange(256)
        elif op=='trunc': data=data[:i]; break
        elif op=='dup': j=min(len(data),i+random.randint(1,200)); data[i:i]=data[i:j]
        elif op=='del': del data[i:i+random.randint(1,50)]
        elif op=='ins': data[i:i]=bytes(random.choice([b'<',b'>',b'&',b'\x00',b'"',b'|',b'9999999999',b'-1',b'nan']))
    p=os.path.join(OUT,'m'+os.path.splitext(f)[1]); open(p,'wb').write(data)
    r=subprocess.run([os.environ.get('UMILOG', '.build/release/umilog'),'convert',p,'--to','json','-o',os.path.join(OUT,'out.json'),'-q'],capture_output=True,timeout=60)
    n+=1
    if r.returncode<0 or r.returncode>2 or b'Fatal error' in r.stderr or b'crashed' in r.stderr:
        bad+=1; open(os.path.join(OUT,'crash%d'%bad+os.path.splitext(f)[1]),'wb').write(data); print('CRASH',f,op,r.returncode,r.stderr[-300:])
print('runs',n,'crashes',bad)
