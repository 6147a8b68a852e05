"""The man page tracehunt(1): generated from the help pages and the JSON
schema (scripts/gen-man.py), so it says what "help COMMAND" says and
lists every JSON field; it renders without a warning."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

# The same whatever SUITES selects: make check runs these in its main run
# only (conftest.py's _drop_once())
pytestmark = pytest.mark.once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
gen = __import__("gen-man")


def test_man_page_is_generated():
    """docs/tracehunt.1 is what scripts/gen-man.py makes of the current
    help pages and schema: run it after changing either."""
    with open(gen.OUT) as f:
        assert f.read() == gen.page(), \
            "docs/tracehunt.1 is stale: run scripts/gen-man.py"


def test_every_help_page_and_option_in_man():
    text = open(gen.OUT).read()
    pages = gen.help_pages()
    assert [p[0] for p in pages] == ["kprobes", "ftrace", "hooks", "ebpf"]
    for name, strings in pages:
        assert ".SS %s\n" % name in text
        for line in strings[3:]:
            for opt in re.findall(r"^\s+(-\w)\s", line):
                assert opt in text


def test_every_schema_field_described():
    with open(gen.SCHEMA) as f:
        schema = json.load(f)

    def walk(s, path):
        for k, sub in (s.get("properties") or {}).items():
            assert sub.get("description"), "%s.%s has no description" % (
                path, k)
            walk(sub, path + "." + k)
        if isinstance(s.get("items"), dict):
            walk(s["items"], path + "[]")
        for k in ("allOf", "anyOf", "oneOf"):
            for alt in s.get(k, []):
                walk(alt, path)
    for name, d in schema["$defs"].items():
        walk(d, name)
    documented = {n for n, _ in gen.JSON_DOCS}
    for name in schema["$defs"]:
        assert name in documented or name in gen.COMMON, name


@pytest.mark.skipif(not shutil.which("groff"), reason="no groff")
def test_man_page_renders_clean():
    r = subprocess.run(["groff", "-ww", "-z", "-man", gen.OUT],
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr


def test_batch_man_page_is_generated():
    with open(gen.BATCH_OUT) as f:
        assert f.read() == gen.batch_page(), \
            "docs/tracehunt-batch.1 is stale: run scripts/gen-man.py --batch"
    r = subprocess.run(["groff", "-ww", "-z", "-man", gen.BATCH_OUT],
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
