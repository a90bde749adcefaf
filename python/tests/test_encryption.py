"""Parquet modular encryption from Python: write_parquet encrypts (uniform or per-column keys,
encrypted or plaintext footer, GCM or CTR, AAD prefixes), ParquetFile / read_parquet /
read_table open with the keys, and without them fail clearly; parquet-testing's encrypted files
read with the keys its README documents."""

import numpy as np
import pandas as pd
import pytest

import strata

FOOTER = b"0123456789012345"
KEY_A = b"1234567890123450"
KEY_B = "1234567890123451"  # str keys are their UTF-8 bytes


@pytest.fixture
def frame():
    return pd.DataFrame({
        "id": np.arange(3000, dtype=np.int64),
        "name": [f"name {i % 97}" for i in range(3000)],
        "amount": np.array([i * 0.5 if i % 7 else np.nan for i in range(3000)]),
    })


@pytest.mark.parametrize("options", [
    {},
    {"plaintext_footer": True},
    {"encryption_algorithm": "AES_GCM_CTR_V1", "page_version": 2, "codec": "zstd"},
    {"aad_prefix": b"table-7"},
    {"column_keys": {"name": KEY_A, "amount": KEY_B}},
    {"column_keys": {"name": KEY_A}, "plaintext_footer": True, "bloom_filter": ["name"]},
])
def test_round_trip(tmp_path, frame, options):
    path = tmp_path / "secret.parquet"
    strata.write_parquet(frame, path, footer_key=FOOTER, row_group_rows=1000, page_rows=300, **options)
    with open(path, "rb") as f:
        magic = f.read(4)
    assert magic == (b"PAR1" if options.get("plaintext_footer") else b"PARE")
    column_keys = options.get("column_keys")
    read = strata.read_parquet(path, footer_key=FOOTER, column_keys=column_keys)
    pd.testing.assert_frame_equal(read, frame)
    table = strata.read_table(path, footer_key=FOOTER, column_keys=column_keys)
    assert table.num_rows == 3000
    with strata.ParquetFile(path, footer_key=FOOTER, column_keys=column_keys) as f:
        assert f.num_row_groups == 3
        stats = f.metadata["row_groups"][1]["columns"]["id"]["statistics"]
        assert stats["min"] == 1000 and stats["max"] == 1999
        batches = list(f.iter_batches(batch_rows=500))
        pd.testing.assert_frame_equal(pd.concat(batches, ignore_index=True), frame)


def test_without_the_keys(tmp_path, frame):
    path = tmp_path / "secret.parquet"
    strata.write_parquet(frame, path, footer_key=FOOTER)
    with pytest.raises(strata.InvalidInput, match="footer key"):
        strata.read_parquet(path)
    with pytest.raises(strata.StrataError, match="authentication failed") as error:
        strata.read_parquet(path, footer_key=b"0123456789012346")
    assert "0123456789012346" not in str(error.value)

    # A plaintext footer with a column key: the other columns read without any key.
    path = tmp_path / "partly.parquet"
    strata.write_parquet(frame, path, footer_key=FOOTER, column_keys={"name": KEY_A}, plaintext_footer=True)
    pd.testing.assert_frame_equal(strata.read_parquet(path, columns=["id", "amount"]), frame[["id", "amount"]])
    with pytest.raises(strata.InvalidInput, match="'name'"):
        strata.read_parquet(path, columns=["name"])


def test_aad_prefix_to_supply(tmp_path, frame):
    path = tmp_path / "prefixed.parquet"
    strata.write_parquet(frame, path, footer_key=FOOTER, aad_prefix="table-7", store_aad_prefix=False)
    with pytest.raises(strata.InvalidInput, match="AAD prefix"):
        strata.read_parquet(path, footer_key=FOOTER)
    with pytest.raises(strata.StrataError, match="authentication failed"):
        strata.read_parquet(path, footer_key=FOOTER, aad_prefix="table-8")
    pd.testing.assert_frame_equal(strata.read_parquet(path, footer_key=FOOTER, aad_prefix="table-7"), frame)


def test_bad_options_are_refused_before_writing(tmp_path, frame):
    path = tmp_path / "never.parquet"
    cases = [
        ({"footer_key": b"short"}, "footer key has 5 bytes"),
        ({"footer_key": FOOTER, "column_keys": {"nope": KEY_A}}, "'nope'"),
        ({"footer_key": FOOTER, "encryption_algorithm": "AES_CBC"}, "AES_GCM_V1 or AES_GCM_CTR_V1"),
        ({"column_keys": {"name": KEY_A}}, "encrypting needs footer_key"),
        ({"footer_key": 42}, "a key is bytes or str"),
    ]
    for options, message in cases:
        with pytest.raises(strata.InvalidInput, match=message):
            strata.write_parquet(frame, path, **options)
        assert not path.exists()
    with pytest.raises(strata.InvalidInput, match="unknown option 'footer'"):
        strata.check_write_options(footer=FOOTER)


def test_parquet_testing_encrypted_files(corpus):
    keys = {"double_field": b"1234567890123450", "float_field": b"1234567890123451"}
    # The generator's int96_field holds days near 4713 BC, outside what pandas holds: left out.
    columns = ["boolean_field", "int32_field", "int64_field", "float_field", "double_field", "ba_field", "flba_field"]
    plain = strata.read_parquet(corpus / "uniform_encryption.parquet.encrypted", footer_key=FOOTER, columns=columns,
                                int96_unit="ms")
    assert len(plain) == 50
    for name in ["encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted",
                 "encrypt_columns_and_footer_ctr.parquet.encrypted"]:
        frame = strata.read_parquet(corpus / name, footer_key=FOOTER, column_keys=keys, columns=columns)
        pd.testing.assert_frame_equal(frame, plain)
    frame = strata.read_parquet(corpus / "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                                footer_key=FOOTER, column_keys=keys, aad_prefix=b"tester", columns=columns)
    pd.testing.assert_frame_equal(frame, plain)
