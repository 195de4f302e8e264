"""checks.py - the tally of passed and failed checks that the Python test runners share.

A failed check prints one line, "FAIL what: detail"; summary() prints the closing
"N passed, N failed" line that tests/run.sh adds up, and returns the exit status."""

tally = {"passed": 0, "failed": 0}


def check(what, ok, detail="", width=300):
    tally["passed" if ok else "failed"] += 1
    if not ok:
        print(f"FAIL {what}: {str(detail)[:width]}", flush=True)
    return ok


def summary():
    print(f"{tally['passed']} passed, {tally['failed']} failed", flush=True)
    return 1 if tally["failed"] else 0
