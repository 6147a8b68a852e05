"""The fuzz targets (fuzz/fuzz_*.c) over their seed corpora (real fixture
bytes, fuzz/corpus/) and every crashing or hanging input the fuzzers found
(fuzz/regress/): built with gcc and ASan+UBSan without libFuzzer
(fuzz/replay.c, which fails an input using more than 2 s of CPU); then, when
clang's libFuzzer is installed, a short fuzzing smoke of each target."""

import os
import shutil
import subprocess

import pytest

# The same whatever SUITES selects: make check runs these in its main run
# only (conftest.py's _drop_once())
pytestmark = pytest.mark.once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "fuzz-test")
TARGETS = ["ringbuf", "insn", "printfmt", "bprint", "walk", "bpfinsn", "btf",
           "elfdata"]
SMOKE_SECONDS = int(os.environ.get("TRACEHUNT_FUZZ_SMOKE", "2"))


def make(target):
    p = subprocess.run(["make", "-s", "-C", ROOT, "BUILD=" + BUILD, target],
                       capture_output=True, text=True)
    assert p.returncode == 0, "make %s:\n%s" % (target, p.stdout + p.stderr)
    return os.path.join(ROOT, target)


@pytest.mark.parametrize("target", TARGETS)
def test_corpus_replay(target):
    exe = make(os.path.join(BUILD, "fuzz", "replay-" + target))
    dirs = [os.path.join(ROOT, "fuzz", d, target) for d in
            ("corpus", "regress")]
    assert os.listdir(dirs[0]), "no seeds in %s" % dirs[0]
    p = subprocess.run([exe] + dirs, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, "%s:\n%s" % (target, (p.stdout +
                                                    p.stderr)[-4000:])


def _have_libfuzzer():
    if not shutil.which("clang"):
        return False
    p = subprocess.run(["clang", "-print-file-name=libclang_rt.fuzzer-x86_64.a"
                        ], capture_output=True, text=True)
    lib = p.stdout.strip()
    if os.path.isfile(lib):
        return True
    p = subprocess.run(["clang", "--print-runtime-dir"], capture_output=True,
                       text=True)
    return os.path.isfile(os.path.join(p.stdout.strip(),
                                       "libclang_rt.fuzzer-x86_64.a"))


@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_smoke(target, tmp_path):
    if not _have_libfuzzer():
        pytest.skip("clang's libFuzzer is not installed (scripts/install-deps)")
    exe = make(os.path.join(BUILD, "fuzz", "fuzz-" + target))
    work = tmp_path / "work"
    work.mkdir()
    p = subprocess.run([exe, "-max_total_time=%d" % SMOKE_SECONDS,
                        "-timeout=10", "-max_len=8192",
                        "-artifact_prefix=%s/" % tmp_path, str(work),
                        os.path.join(ROOT, "fuzz", "corpus", target),
                        os.path.join(ROOT, "fuzz", "regress", target)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, "%s found something:\n%s" % (
        target, p.stderr[-4000:])
