"""The -j outputs: every document valid against the one schema
(docs/tracehunt-json.schema.json), and what each says equal to what the
live kernel showed (or, where no tracefs file shows it, to the text
output the other tests hold to the live kernel)."""

import hashlib
import json
import os
import re

import pytest

import thlib
from conftest import scenarios

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(ROOT, "docs", "tracehunt-json.schema.json")

DOCS = ["kprobes -j", "ftrace -j", "ftrace ops -j", "ftrace sites -j",
        "ftrace tracers -j", "ftrace ls -j", "hooks -j", "ebpf -j",
        "ebpf -l -j", "ebpf -m -j"]
TRACE = "ftrace trace -j"
thlib.batch(DOCS + [TRACE, "ftrace trace", "kprobes -j -v",
                    "ftrace sites -j -m no_such_module"])
# "persist": the boot-mapped instance holding the previous boot's trace,
# whose head carries last_boot
PERSIST_TRACE = "ftrace trace -j -i boot_mapped -n 5"
thlib.batch([PERSIST_TRACE], scenarios=["persist"])

jsonschema = pytest.importorskip("jsonschema")
_validators = {}

# The $defs kind each command's document must be.  Each document is held to
# its own kind, not to the schema's anyOf of every kind: stricter (a sites
# document that happened to match another kind would pass the anyOf), and
# a trace entry is no longer first tried against eight other kinds.
KIND = {"kprobes -j": "kprobes", "ftrace -j": "ftrace",
        "ftrace ops -j": "ftrace_ops", "ftrace sites -j": "ftrace_sites",
        "ftrace tracers -j": "ftrace_tracers", "ftrace ls -j": "ftrace_ls",
        "hooks -j": "hooks", "ebpf -j": "ebpf", "ebpf -l -j": "ebpf_links",
        "ebpf -m -j": "ebpf_maps"}


def _schema(kind=None):
    """The schema; with KIND, for that $defs entry alone (the same
    definitions, the top-level anyOf replaced by its $ref)."""
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    if kind is not None:
        assert {"$ref": "#/$defs/" + kind} in schema["anyOf"], kind
        del schema["anyOf"]
        schema["$ref"] = "#/$defs/" + kind
    return schema


def validator(kind=None):
    """The schema's validator (jsonschema's, for its error messages)."""
    if kind not in _validators:
        _validators[kind] = jsonschema.Draft202012Validator(_schema(kind))
    return _validators[kind]


# Keywords whose meaning draft 7 and draft 2020-12 share, when no $ref has
# a sibling that constrains (2020-12 applies it, draft 7 ignores it) and
# every "items" is one schema (an array of them is 2020-12's
# prefixItems): the schema then accepts the same documents in either.
_SAME_IN_DRAFT7 = {"$defs", "$id", "$ref", "$schema", "additionalProperties",
                   "allOf", "anyOf", "const", "description", "enum",
                   "items", "minimum", "maximum", "oneOf", "pattern",
                   "properties", "required", "title", "type"}


def _same_in_draft7(x):
    if isinstance(x, list):
        return all(_same_in_draft7(v) for v in x)
    if not isinstance(x, dict):
        return True
    if set(x) - _SAME_IN_DRAFT7:
        return False
    if "$ref" in x and set(x) - {"$ref", "description", "title", "$defs",
                                 "$schema", "$id"}:
        return False
    if isinstance(x.get("items"), list):
        return False
    # (fastjsonschema compares with ==: True equals 1; see _no_bool())
    if any(isinstance(v, (bool, int, float)) for v in x.get("enum", ())):
        return False
    for k, v in x.items():
        if k in ("properties", "$defs"):
            if not all(_same_in_draft7(s) for s in v.values()):
                return False
        elif k not in ("enum", "const", "required") and \
                not _same_in_draft7(v):
            return False
    return True


def _no_bool(x):
    """A numeric const of X made to refuse a boolean, as jsonschema's const
    does ("schema": 1 is not "schema": true)."""
    if isinstance(x, list):
        for v in x:
            _no_bool(v)
    elif isinstance(x, dict):
        c = x.get("const")
        if isinstance(c, int) and not isinstance(c, bool) and \
                "type" not in x:
            x["type"] = "integer"
        for k, v in x.items():
            if k not in ("enum", "const"):
                _no_bool(v)


_compiled = {}


def compiled(kind):
    """The schema for KIND compiled to Python (fastjsonschema, ten times
    faster on the documents of tens of thousands of ftrace sites), or
    None: not installed, or the schema uses what draft 7 reads otherwise
    (then jsonschema alone validates)."""
    if kind not in _compiled:
        _compiled[kind] = None
        try:
            import fastjsonschema
        except ImportError:
            return None
        schema = _schema(kind)
        if _same_in_draft7(schema):
            _no_bool(schema)
            schema["$schema"] = "http://json-schema.org/draft-07/schema#"
            _compiled[kind] = fastjsonschema.compile(schema)
    return _compiled[kind]


# Outputs already validated, by kind and bytes: the kdump, elf and filtered
# dumps of one boot print the same documents, which need validating once
# (the same bytes against the same schema give the same answer).
_validated = set()


def valid_output(raw, docs, what, kinds):
    """Validate DOCS (parsed from RAW) against KINDS, unless these very
    bytes passed before."""
    key = (tuple(kinds), hashlib.sha256(raw).digest())
    if key in _validated:
        return
    for i, (doc, kind) in enumerate(zip(docs, kinds)):
        valid(doc, what if len(docs) == 1 else "%s line %d" % (what, i + 1),
              kind)
    _validated.add(key)


def valid(doc, what, kind=None):
    fast = compiled(kind)
    if fast is not None:
        import fastjsonschema
        try:
            fast(doc)
            return
        except fastjsonschema.JsonSchemaException:
            pass        # jsonschema's message follows
    errs = sorted(validator(kind).iter_errors(doc), key=lambda e: e.path)
    assert not errs, "%s: %s at %s" % (what, errs[0].message[:300],
                                       list(errs[0].absolute_path))


def document(dump, cmd):
    """The one JSON document CMD printed (nothing else on its output)."""
    out = dump.out(cmd).decode()
    try:
        return json.loads(out)
    except ValueError as e:
        pytest.fail("%s: not one JSON document (%s): %r" % (cmd, e, out[:300]))


def trace_lines(dump, cmd=TRACE):
    out = dump.out(cmd).decode()
    try:
        return [json.loads(l) for l in out.splitlines()]
    except ValueError as e:
        pytest.fail("%s: a line is not JSON (%s)" % (cmd, e))


@pytest.mark.parametrize("cmd", DOCS)
def test_document_valid(dump, cmd):
    doc = document(dump, cmd)
    valid_output(dump.out(cmd), [doc], cmd, [KIND[cmd]])
    assert doc["command"] == cmd[:-3].strip(), doc["command"]


def test_errors_are_documents(dump):
    """What has nothing to list is a JSON document with an error, not a
    text line amid JSON; a conflicting option is crash's usage."""
    doc = document(dump, "ftrace sites -j -m no_such_module")
    valid(doc, "sites -m", "ftrace_sites")
    if "error" not in doc:
        # a kernel without dynamic ftrace says so before the module
        pytest.fail("no error for an unknown module: %r" % doc)
    assert "no_such_module" in doc["error"] or "ftrace:" in doc["error"]
    assert b"Usage:" in dump.out("kprobes -j -v")


def test_trace_lines_valid(dump):
    _trace_lines_valid(dump, TRACE)


@scenarios("persist")
def test_trace_lines_valid_previous_boot(dump):
    """An instance holding the previous boot's trace: its lines valid, the
    head's last_boot among them (test_trace.py holds it to the live
    last_boot_info)."""
    lines = _trace_lines_valid(dump, PERSIST_TRACE)
    assert lines[0]["last_boot"]["known"] is True, lines[0]


def _trace_lines_valid(dump, cmd):
    lines = trace_lines(dump, cmd)
    assert len(lines) >= 2, lines
    # the head, the entries, the end: each valid; entries all checked
    # against the schema (a few thousand lines per dump at most)
    kinds = ["ftrace_trace_head" if i == 0 else "ftrace_trace_end"
             if i == len(lines) - 1 and "entries" in l else
             "ftrace_trace_entry" for i, l in enumerate(lines)]
    valid_output(dump.out(cmd), lines, cmd, kinds)
    assert lines[0]["command"] == "ftrace trace"
    if "error" in lines[0]:
        return lines
    assert lines[-1]["entries"] == len(lines) - 2
    return lines


def _kprobes_list_line(p):
    """A probe of kprobes -j as kprobes/list prints it (report_probe())."""
    if p["offset"] is not None:
        head = "%016x  %s  %s+0x%x  %s " % (int(p["address"], 16), p["type"],
                                            p["symbol"], p["offset"],
                                            p["module"] or " ")
    else:
        head = "%016x  %s  %s " % (int(p["address"], 16), p["type"],
                                   p["symbol"])
    own, site = p["flags"], p["site_flags"]
    return head + "%s%s%s%s" % (
        "[GONE]" if "GONE" in own else "",
        "[DISABLED]" if "DISABLED" in own and "GONE" not in own else "",
        "[OPTIMIZED]" if "OPTIMIZED" in site else "",
        "[FTRACE]" if "FTRACE" in site else "")


def test_kprobes_match_live(dump):
    if not dump.has_truth("debug/kprobes/list"):
        pytest.skip("no kprobes/list captured")
    doc = document(dump, "kprobes -j")
    if "error" in doc:
        assert not dump.truth("debug/kprobes/list").strip(), doc["error"]
        return
    live = dump.truth("debug/kprobes/list").decode().splitlines()
    assert [_kprobes_list_line(p) for p in doc["probes"]] == live


def test_kprobes_handlers_as_text(dump):
    """Every handler kprobes -v names, -j names with the same owner."""
    doc = document(dump, "kprobes -j")
    text = dump.out("kprobes -v").decode()
    for p in doc.get("probes", []):
        for k in ("pre_handler", "post_handler", "fault_handler"):
            h = p[k]
            if h and not h["address"] == "0x0":
                line = "  %-15s %016x  %s  %s" % (
                    k, int(h["address"], 16), h["symbol"],
                    h["owner"]["text"])
                assert line in text.splitlines(), line


def test_summary_matches_live(dump):
    doc = document(dump, "ftrace -j")
    if "error" in doc:
        pytest.skip(doc["error"])
    for a in doc["arrays"]:
        base = "tracing/" + ("instances/%s/" % a["name"] if a["name"] else "")
        if dump.has_truth(base + "tracing_on"):
            live = dump.truth(base + "tracing_on").decode().strip()
            assert a["tracing_on"] == (live == "1"), (a["name"], live)
        if dump.has_truth(base + "current_tracer"):
            live = dump.truth(base + "current_tracer").decode().strip()
            assert a["tracer"] == live, (a["name"], live)
        for c in a["buffer_size_kb"]:
            f = base + "per_cpu/cpu%d/buffer_size_kb" % c["cpu"]
            if dump.has_truth(f):
                live = dump.truth(f).decode().split()[0]
                # "7 (expanded: 1408)" before the buffers grow: the
                # summary gives the size the buffer has
                if "expanded" not in dump.truth(f).decode():
                    assert c["kb"] == int(live), (f, c, live)


def test_tracers_match_live(dump):
    doc = document(dump, "ftrace tracers -j")
    if "error" in doc or not dump.has_truth("tracing/available_tracers"):
        pytest.skip("no tracers")
    live = dump.truth("tracing/available_tracers").decode().split()
    assert [t["name"] for t in doc["tracers"]] == live
    cur = dump.truth("tracing/current_tracer").decode().strip()
    assert [t["name"] for t in doc["tracers"]
            if "" in t["current_in"]] == [cur]


def test_ls_as_text(dump):
    doc = document(dump, "ftrace ls -j")
    assert doc["files"] == dump.out("ftrace ls").decode().splitlines()


def _enabled_names(text):
    names = []
    for line in text.splitlines():
        if line and not line.startswith((" ", "\t")):
            names.append(line.split()[0])
    return names


def test_sites_match_live_enabled(dump):
    """The sites -j lists as enabled (E) are the live enabled_functions,
    in the same order (both walk ftrace_pages)."""
    if not dump.has_truth("tracing/enabled_functions"):
        pytest.skip("no enabled_functions captured")
    doc = document(dump, "ftrace sites -j")
    if "error" in doc:
        pytest.skip(doc["error"])
    got = [re.sub(r"\+0x[0-9a-f]+( \[.*\])?$", "", s["symbol"])
           for s in doc["sites"] if " E" in s["flag_letters"]]
    live = _enabled_names(dump.truth("tracing/enabled_functions").decode())
    assert got == live
    t = doc["totals"]
    text = dump.out("ftrace sites").decode().splitlines()[-1]
    assert text.startswith("%d records, %d enabled, %d patched, %d "
                           "mismatches" % (t["records"], t["enabled"],
                                           t["patched"], t["mismatches"]))


def test_ops_as_text(dump):
    """ftrace ops -j lists the ops of ftrace ops, in order, with the same
    callbacks, flags and owners (no tracefs file lists ftrace_ops)."""
    doc = document(dump, "ftrace ops -j")
    if "error" in doc:
        pytest.skip(doc["error"])
    text = dump.out("ftrace ops").decode()
    heads = [l for l in text.splitlines() if re.match(r"^[0-9a-f]+  ftrace_ops", l)]
    assert [int(h.split()[0], 16) for h in heads] == \
        [int(o["address"], 16) for o in doc["ops"]]
    for o in doc["ops"]:
        func = "    %-11s %x  %s  %s" % ("func", int(o["func"]["address"], 16),
                                         o["func"]["symbol"],
                                         o["func"]["owner"]["text"])
        assert func in text.splitlines(), func
        assert ("    %-11s 0x%x  %s" % ("flags", o["flags"],
                                        "|".join(o["flag_names"]))) \
            in text.splitlines()
    assert doc["count"] == len(doc["ops"])


CTX = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(\(\s*[\d-]+\)\s+)?"
                 r"\[(?P<cpu>\d+)\]\s+(?:(?P<flags>\S+)\s+)?"
                 r"(?P<ts>\d+\.\d+): (?P<text>.*)$")

# The latency format's columns (lat_print_generic(), lat_print_timestamp():
# the comm cut to 8, microseconds since the buffer's time_start and the
# mark of the gap to the next entry): no time stamp of the entry's own;
# 3.10's four flag columns (no migrate-disable) to the later five or six.
LAT_CTX = re.compile(r"^(?P<comm>.{8})-(?P<pid>\d+)\s+(?P<cpu>\d+)"
                     r"(?P<flags>\S{4,6})\s+(?P<ts>\d+)us.: (?P<text>.*)$")


def _trace_entries(text, lat=False, bare=()):
    """(pid, cpu, flags, "secs.usecs", text) of each entry of a trace
    file's body, continuation lines (a stack trace) joined (in latency
    format, LAT: the relative microseconds instead of "secs.usecs");
    flags None where irq-info is off; the lines of BARE (messages printed
    alone: printk-msg-only) left out."""
    ents = []
    for line in text.splitlines():
        if line.startswith("#") or line in bare:
            continue
        m = (LAT_CTX if lat else CTX).match(line)
        if m:
            ents.append([int(m["pid"]), int(m["cpu"]), m["flags"], m["ts"],
                         m["text"], m["comm"]])
        elif ents:
            ents[-1][4] += "\n" + line
    return ents


def test_trace_entries_as_trace(dump):
    """Each JSON line is one entry of "ftrace trace", the same entry in the
    same order: pid, CPU, flags, time stamp and the text after it (the
    text output is held to the live trace file by tests/test_trace.py)."""
    lines = trace_lines(dump)
    if "error" in lines[0]:
        pytest.skip(lines[0]["error"])
    if lines[0]["tracer"] == "function_graph":
        pytest.skip("function_graph's trace joins entry and exit records "
                    "into one line: -j gives the records")
    if not lines[0]["ts_in_ns"]:
        pytest.skip("a counter clock: the text prints raw counts")
    # a latency tracer's trace (wakeup_rt: latency-format) prints the time
    # since the buffer's time_start: every column but that one compared
    lat = b"latency trace v1.1.5 on" in dump.out("ftrace cat trace")
    # printk-msg-only (printopts' top level): print entries show their
    # message alone, without the context columns: compared apart
    msg_only = dump.has_truth("tracing/options/printk-msg-only") and \
        dump.truth("tracing/options/printk-msg-only") == b"1\n"
    alone = [e for e in lines[1:-1] if msg_only and
             e["event"] in ("print", "bprint", "bputs")]
    # (the text's bytes as the code points U+0000..U+00FF -j gives them:
    # a user event's char field prints its byte as it is)
    text = dump.out("ftrace trace").decode("latin-1")
    for e in alone:
        assert e["text"] in text.splitlines(), e
    want = _trace_entries(text, lat, set(e["text"] for e in alone))
    got = []
    for e in lines[1:-1]:
        if e in alone:
            continue
        us = (e["ts"] + 500) // 1000
        got.append([e["pid"], e["cpu"], e["flags"],
                    "%d.%06d" % (us // 1000000, us % 1000000), e["text"],
                    e["comm"]])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if lat:
            g[3] = w[3]
        if w[2] is None:
            # irq-info off (printopts' top level): no flags column
            w[2] = g[2]
        assert g[:5] == w[:5], (g, w)
        # the comm column is cut to 16 characters
        assert w[5].strip() == g[5][:8 if lat else 16].strip() or \
            w[5] == "<...>", (g, w)
