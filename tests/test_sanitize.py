"""The extension built with ASan+UBSan (make SANITIZE=1), loaded into crash
with the sanitizer runtime preloaded (fuzz/san/crash), runs every command on
real dumps with 0 sanitizer reports and prints exactly what the plain build
prints.  (The whole suite under the sanitizers: make SANITIZE=1
BUILD=build/san SO=build/san/tracehunt.so check.)"""

import glob
import os
import subprocess

import pytest

import thlib
from conftest import scenarios

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAN_BUILD = os.path.join(ROOT, "build", "san-test")
SAN_SO = os.path.join(SAN_BUILD, "tracehunt.so")
_built = {}


def san_so():
    """Build (incrementally) the sanitized .so once per session."""
    if "so" not in _built:
        p = subprocess.run(["make", "-s", "-C", ROOT, "SANITIZE=1",
                            "BUILD=" + SAN_BUILD, "SO=" + SAN_SO],
                           capture_output=True, text=True)
        _built["so"] = (p.returncode, p.stdout + p.stderr)
    rc, log = _built["so"]
    assert rc == 0, "make SANITIZE=1 failed:\n" + log[-3000:]
    return SAN_SO


@scenarios("events", "modules")
def test_no_sanitizer_reports(dump, tmp_path, monkeypatch):
    if not fixture_is_host(dump) or dump.variant != "kdump":
        pytest.skip("sanitized runs: host suite, kdump variant only")
    so = san_so()
    logdir = str(tmp_path / "san-logs")
    runtime = subprocess.run(["gcc", "-print-file-name=libasan.so"],
                             capture_output=True, text=True).stdout.strip()
    monkeypatch.setenv("PATH", os.path.join(ROOT, "fuzz", "san") + ":" +
                       os.environ["PATH"])
    monkeypatch.setenv("TH_SAN_LOGDIR", logdir)
    monkeypatch.setenv("TH_SAN_RUNTIME", runtime)
    clean = thlib.Dump.__new__(thlib.Dump)
    clean.__dict__.update(dump.__dict__)
    cmds = dump.commands()
    outs = clean.run(cmds, so=so)
    reports = sorted(glob.glob(os.path.join(logdir, "*")))
    text = ""
    for f in reports:
        with open(f, errors="replace") as fh:
            text += "==> %s\n%s\n" % (f, fh.read(6000))
    assert not reports, "sanitizer reports:\n" + text
    assert "RELEASE:" in clean.log.split("shared object unloaded")[-1], \
        clean.log[-2000:]
    for c in cmds:
        assert outs[c] == dump.out(c), \
            "'%s' differs under the sanitizers" % c


def fixture_is_host(dump):
    return thlib.fixture.Suite(dump.manifest.get(
        "crash_suite", dump.suite)).host
