#!/usr/bin/env python3
"""Adds damaged copies of each seed_* input in a regression folder: cut short at a few points
and with single bits flipped at fixed pseudo-random positions (the same every run), so the
fuzz targets' error paths are replayed in every build, not only their happy paths.

    src/strata/fuzz/regressions/make_variants.py src/strata/fuzz/regressions/plain
"""
import os
import random
import sys


def variants(data, rng):
    n = len(data)
    for cut in sorted({n // 4, n // 2, n - 1, n - 3}):
        if 0 < cut < n:
            yield f"cut{cut}", data[:cut]
    for k in range(6):
        if n == 0:
            break
        position = rng.randrange(n)
        flipped = bytearray(data)
        flipped[position] ^= 1 << rng.randrange(8)
        yield f"flip{position}", bytes(flipped)


def main(folder):
    for name in sorted(os.listdir(folder)):
        if not name.startswith("seed_"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        rng = random.Random(name)
        for suffix, damaged in variants(data, rng):
            with open(os.path.join(folder, f"{name[5:]}_{suffix}"), "wb") as f:
                f.write(damaged)


if __name__ == "__main__":
    for folder in sys.argv[1:]:
        main(folder)
