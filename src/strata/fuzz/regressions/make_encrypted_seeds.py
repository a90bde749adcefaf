#!/usr/bin/env python3
"""Writes the seed_* inputs of the encrypted_file_reader target with strata's own writer (the
Python module of a build tree), under the keys the target opens files with (footer key
"0123456789012345", column keys for double_field and float_field), in every mode: uniform or
per-column keys, encrypted or plaintext footer, AES_GCM_V1 or AES_GCM_CTR_V1, page v1 or v2, a
stored AAD prefix, Bloom filters and the page index. It then adds, beside make_variants.py's
random damage, one bit flipped inside each encrypted page-index and Bloom filter module of the
first per-column seed (random flips rarely land there).

    PYTHONPATH=build/release/python /usr/bin/python3 \\
        src/strata/fuzz/regressions/make_encrypted_seeds.py src/strata/fuzz/regressions/encrypted_file_reader BIN
(BIN: the strata command-line tool, used to find the index modules.)
"""
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd

import strata

FOOTER = b"0123456789012345"
COLUMNS = {"double_field": b"1234567890123450", "float_field": b"1234567890123451"}


def frame():
    n = 60
    return pd.DataFrame({
        "id": np.arange(n, dtype=np.int32),
        "double_field": np.arange(n) * 1.25,
        "float_field": (np.arange(n) % 17).astype(np.float32),
        "name": [f"n{i % 9}" for i in range(n)],
    })


SEEDS = {
    "uniform_gcm": dict(bloom_filter=["name"]),
    "columns_gcm": dict(column_keys=COLUMNS, bloom_filter=["double_field"]),
    "columns_plaintext_footer_ctr": dict(column_keys=COLUMNS, plaintext_footer=True,
                                         encryption_algorithm="AES_GCM_CTR_V1"),
    "uniform_ctr_v2_zstd": dict(encryption_algorithm="AES_GCM_CTR_V1", page_version=2, codec="zstd"),
    "columns_aad_prefix": dict(column_keys=COLUMNS, aad_prefix=b"tester"),
}


def main(folder, binary):
    for name, options in SEEDS.items():
        path = os.path.join(folder, f"seed_{name}.parquet")
        strata.write_parquet(frame(), path, footer_key=FOOTER, row_group_rows=30, page_rows=12, **options)
        os.rename(path, path[: -len(".parquet")])
    # One flipped bit inside each module of columns_gcm's page index and Bloom filter.
    seed = os.path.join(folder, "seed_columns_gcm")
    keys = ["--footer-key", FOOTER.decode()]
    for column, key in COLUMNS.items():
        keys += ["--column-key", f"{column}:{key.decode()}"]
    text = subprocess.run([binary, "meta", seed, *keys], check=True, capture_output=True, text=True).stdout
    offsets = [int(m) for m in re.findall(r"(?:column index|offset index) at (\d+)", text)]
    offsets += [int(m) for m in re.findall(r"bloom filter: at (\d+)", text)]
    with open(seed, "rb") as f:
        data = f.read()
    for offset in sorted(set(offsets))[:6]:
        flipped = bytearray(data)
        flipped[offset + 20] ^= 0x10  # past the length and nonce: the ciphertext
        with open(os.path.join(folder, f"columns_gcm_index_flip{offset + 20}"), "wb") as f:
            f.write(bytes(flipped))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
