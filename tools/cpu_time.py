#!/usr/bin/env python3
"""Runs a command and prints its wall time and the CPU time of it and of every process it started.
Usage: tools/cpu_time.py make test   (docs/performance.md, "The test loop"). Must not be needed by any build or test.
/usr/bin/time under-counts the browser tests: Chromium's renderer and GPU processes are reaped by no ancestor that
reports them. Here this process is a child subreaper, so every descendant is reaped here and counted."""
import ctypes, os, resource, subprocess, sys, time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
start_s = time.time()
rc = subprocess.Popen(sys.argv[1:]).wait()
while True:  # orphans that outlived the command are ours now
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"cpu_time: exit {rc}, wall {time.time() - start_s:.1f} s, user {usage.ru_utime:.1f} s, "
      f"system {usage.ru_stime:.1f} s", file=sys.stderr)
sys.exit(rc)
