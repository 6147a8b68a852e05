"""pytest wiring: every test that takes `dump` runs once per selected
(suite, scenario, variant); each dump is built (or reused from the cache)
once and opened by ONE crash process that runs every command."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import thlib  # noqa: E402

_dumps = {}


def get_dump(key):
    if key not in _dumps:
        try:
            _dumps[key] = thlib.Dump(*key)
        except thlib.fixture.FixtureError as e:
            _dumps[key] = e
    d = _dumps[key]
    if isinstance(d, Exception):
        pytest.fail("fixture %s: %s" % ("-".join(key), d), pytrace=False)
    return d


def pytest_generate_tests(metafunc):
    if "dump" in metafunc.fixturenames:
        sel = thlib.selected()
        only = getattr(metafunc.function, "scenarios", None)
        if only:
            sel = [k for k in sel if k[1] in only]
        metafunc.parametrize("dump_key", sel,
                             ids=["-".join(k) for k in sel])


@pytest.fixture
def dump(dump_key):
    return get_dump(dump_key)


def scenarios(*names):
    """Decorator: run a test only on these scenarios."""
    def deco(f):
        f.scenarios = names
        return f
    return deco
