"""The model's type look-ups answered from the vmlinux file's BTF
(src/model/btf_types.h) are the ones gdb gives.

Every crash session of a scenario's kdump dump (of each of its dumps
when the kdump one is not selected: thlib's Dump.checks_btf(); the others
share its vmlinux, modules and commands) runs with TRACEHUNT_BTFCHECK
(thlib's _run_in): each look-up the BTF answered (a member's offset, size
or pointerness, a struct's size, an enum's enumerators) is asked of gdb as
well and both answers are logged (gdb's answers of earlier runs on the
same vmlinux, modules and crash are kept in the cache and given back
through TRACEHUNT_BTFCHECK_KNOWN: gdb is asked only what it was not
asked yet; Dump.btf_known_path()).  Here: not one differs, on any kernel,
for any command the tests run; and on a kernel whose vmlinux has a .BTF
section the BTF did answer (the check checked something)."""

import subprocess

import pytest

import thlib


def _has_btf(vmlinux):
    """Whether VMLINUX has a .BTF section with its bytes (PROGBITS)."""
    out = subprocess.run(["readelf", "-SW", vmlinux], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if "]" in line and line.split("]", 1)[1].split()[:2] == \
                [".BTF", "PROGBITS"]:
            return True
    return False


def test_btf_answers_are_gdbs(dump):
    if not dump.checks_btf():
        pytest.skip("asked on %s-%s-kdump: the same vmlinux, modules and "
                    "commands" % (dump.suite, dump.scenario))
    dump.prefetch()
    if dump.error is not None:
        raise thlib.DumpError(str(dump.error))
    differ = [l for l in dump.btfcheck if l.startswith("! ")]
    assert not differ, ("the vmlinux BTF and gdb differ on %d look-ups "
                        "(key btf=... gdb=...):\n%s"
                        % (len(differ), "\n".join(differ[:40])))
    agree = [l for l in dump.btfcheck if l.startswith("= ")]
    if _has_btf(dump.vmlinux()):
        # a first trace command alone asks some hundred
        assert len(agree) >= 50, (len(agree), dump.btfcheck[:10])
    else:
        assert not agree, agree[:10]
