"""strata's Python readers and writers on s3:// paths, against the S3 test server
(testing/s3: s3rver behind a proxy that checks every request's SigV4 signature), started here.
Settings come as fsspec's storage_options or from the environment, as users write them."""

import os
import subprocess

import numpy as np
import pandas as pd
import pytest

import strata

from conftest import REPO, _in_ci

KEY = "STRATATESTACCESSKEY"
SECRET = "strata-test-secret-key"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    state = tmp_path_factory.mktemp("s3")
    script = REPO / "scripts" / "s3-test-server"
    run = subprocess.run([str(script), "start", str(state), "--bucket", "py", "--parent-pid", str(os.getpid())],
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        message = f"the S3 test server did not start ({run.returncode}): {run.stdout}{run.stderr}"
        if _in_ci() or run.returncode != 77:
            pytest.fail(message)
        pytest.skip(message)
    endpoint = f"http://127.0.0.1:{int(run.stdout.split()[-1])}"
    yield {"endpoint_url": endpoint, "key": KEY, "secret": SECRET, "region": "us-east-1"}
    subprocess.run([str(script), "stop", str(state)], capture_output=True, timeout=60)


def frame(rows=50_000):
    rng = np.random.default_rng(7)
    return pd.DataFrame({
        "id": np.arange(rows, dtype=np.int64),
        "value": rng.normal(size=rows),
        "name": [f"naïve {i % 97}" for i in range(rows)],
    })


def test_parquet_round_trip_with_storage_options(s3):
    df = frame()
    strata.write_parquet(df, "s3://py/dir with space/ü.parquet", storage_options=s3)
    back = strata.read_parquet("s3://py/dir with space/ü.parquet", storage_options=s3)
    pd.testing.assert_frame_equal(back, df, check_dtype=False)
    with strata.ParquetFile("s3://py/dir with space/ü.parquet", storage_options=s3) as f:
        assert f.num_rows == len(df)
        assert f.read(columns=["id"], filter=[("id", "<", 10)])["id"].tolist() == list(range(10))


def test_s3fs_spelling_and_the_environment(s3, monkeypatch):
    df = frame(1000)
    s3fs_style = {"key": KEY, "secret": SECRET, "client_kwargs": {"endpoint_url": s3["endpoint_url"],
                                                                  "region_name": "us-east-1"}}
    strata.write_parquet(df, "s3://py/s3fs.parquet", storage_options=s3fs_style)
    monkeypatch.setenv("AWS_ENDPOINT_URL", s3["endpoint_url"])
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    pd.testing.assert_frame_equal(strata.read_parquet("s3://py/s3fs.parquet"), df, check_dtype=False)


def test_csv_round_trip(s3):
    df = frame(20_000)
    strata.write_csv(df, "s3://py/table.csv", storage_options=s3)
    back = strata.read_csv("s3://py/table.csv", storage_options=s3)
    pd.testing.assert_frame_equal(back, df, check_dtype=False)


def test_errors_name_the_url_and_code_not_the_secret(s3):
    wrong = dict(s3, secret="not-the-secret")
    with pytest.raises(Exception) as failure:
        strata.read_parquet("s3://py/s3fs.parquet", storage_options=wrong)
    assert "SignatureDoesNotMatch" in str(failure.value)
    assert "not-the-secret" not in str(failure.value)
    with pytest.raises(Exception, match="NoSuchKey"):
        strata.read_parquet("s3://py/absent.parquet", storage_options=s3)
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        strata.read_parquet("s3://py/s3fs.parquet", storage_options=dict(s3, bogus=1))
