"""pytest plugin for "make SANITIZE=1 check": crash runs through
fuzz/san/crash, which leaves every sanitizer report in $TH_SAN_LOGDIR; the
session fails when any report is there at its end."""

import glob
import os


def _reports():
    d = os.environ.get("TH_SAN_LOGDIR")
    return sorted(glob.glob(os.path.join(d, "*"))) if d else []


def pytest_sessionstart(session):
    for f in _reports():
        os.unlink(f)


def pytest_sessionfinish(session, exitstatus):
    reports = _reports()
    if not reports:
        return
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    for f in reports:
        with open(f, errors="replace") as fh:
            text = fh.read(20000)
        if tr:
            tr.write_sep("=", "sanitizer report %s" % f)
            tr.write_line(text)
    session.exitstatus = 1
