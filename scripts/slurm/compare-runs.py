#!/usr/bin/env python3
"""Checks that two runs of `cutlab reproduce --deterministic` wrote the same rows.

    compare-runs.py LOCAL_DIR SLURM_DIR

Every result CSV of LOCAL_DIR (shard files and summaries aside) must exist in SLURM_DIR with
the same header and the same multiset of rows, once the columns that measure time are dropped
(the shards of a job array write their rows in another order, so rows are compared sorted). A
summary (`depth`'s `*.summary.csv`) is the rows compared here summed up, times included.
Exits 1 naming the first file that differs.
"""
import csv
import sys
from pathlib import Path

TIMING = {"time_ms", "nps"}


def rows(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        keep = [i for i, name in enumerate(header) if name not in TIMING]
        body = sorted(tuple(r[i] for i in keep) for r in reader)
    return [header[i] for i in keep], body


def main():
    local, slurm = Path(sys.argv[1]), Path(sys.argv[2])
    files = sorted(
        p.relative_to(local)
        for p in local.rglob("*.csv")
        if ".shard" not in p.name and not p.name.endswith(".summary.csv")
    )
    if not files:
        sys.exit(f"{local}: no CSV files")
    for name in files:
        other = slurm / name
        if not other.is_file():
            sys.exit(f"{other}: missing (present in {local})")
        (h1, r1), (h2, r2) = rows(local / name), rows(other)
        if h1 != h2:
            sys.exit(f"{name}: headers differ: {h1} vs {h2}")
        if r1 != r2:
            diff = next((a, b) for a, b in zip(r1 + [()], r2 + [()]) if a != b)
            sys.exit(f"{name}: rows differ ({len(r1)} vs {len(r2)} rows); first: {diff}")
        print(f"same: {name} ({len(r1)} rows)")
    print(f"{len(files)} CSV files agree")


if __name__ == "__main__":
    main()
