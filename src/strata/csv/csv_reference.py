#!/usr/bin/python3
"""The independent RFC 4180 reading for wild_corpus_test.cc: Python's csv module (Debian's)
reads FILE in the dialect given by byte codes (0 = none) and prints one line per row, each
field as the hex of its bytes ('-' when empty). Blank lines give no row, as in strata."""
import csv
import sys


def main():
    path, delimiter, quote, escape = sys.argv[1], *(int(a) for a in sys.argv[2:5])
    dialect = {"delimiter": chr(delimiter), "doublequote": True, "strict": False, "skipinitialspace": False}
    if quote:
        dialect["quotechar"] = chr(quote)
    else:
        dialect["quoting"] = csv.QUOTE_NONE
    if escape:
        dialect["escapechar"] = chr(escape)
    # utf-8-sig: a BOM is not part of the first field; surrogateescape keeps invalid UTF-8 bytes.
    with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        for row in csv.reader(f, **dialect):
            if row:
                print(" ".join(field.encode("utf-8", "surrogateescape").hex() or "-" for field in row))


if __name__ == "__main__":
    main()
