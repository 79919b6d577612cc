"""Build the optional compiled solver core; everything else is in pyproject.toml.

Without a C compiler the package still installs and the solver runs in pure
Python (slower): the extension is optional.

With GCC the core is built profile-guided, as chess engines and CPython are:
an instrumented build runs ``tools/pgo_train.py`` (a few seconds of search),
then the final build uses the branch profile it wrote (about 3% faster on
hard deals, docs/solver.md "What it runs on"). Anything going wrong there,
or ``YUKON_PGO=0`` in the environment, gives the plain ``-O3`` build.

The one-core interleave switches stacks with POSIX ucontext where the C library
has it; elsewhere (a test program calling swapcontext does not link, or
``YUKON_NO_UCONTEXT=1`` in the environment) the core is built with the macro
YUKON_NO_UCONTEXT and takes turns between two threads instead
(src/yukon/solver/core/interleave.h, docs/solver-design.md "Portability").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
TRAINER = HERE / "tools" / "pgo_train.py"
BASE_FLAGS = ["-O3"]
#: the core's files (src/yukon/solver/core/core.h says which seam each one holds), relative to this file as
#: setuptools wants them
CORE_DIR = Path("src") / "yukon" / "solver" / "core"
CORE_SOURCES = sorted(str(p.relative_to(HERE)) for p in (HERE / CORE_DIR).glob("*.c"))
CORE_HEADERS = sorted(str(p.relative_to(HERE)) for p in (HERE / CORE_DIR).glob("*.h"))
#: a program that links only where the C library has working ucontext (musl, for one, has the header only)
UCONTEXT_PROBE = """#include <ucontext.h>
static ucontext_t first, second;
static char stack[1 << 16];
static void entry(void) {}
int main(void) {
    if (getcontext(&second) < 0) return 1;
    second.uc_stack.ss_sp = stack;
    second.uc_stack.ss_size = sizeof stack;
    second.uc_link = &first;
    makecontext(&second, entry, 0);
    return swapcontext(&first, &second);
}
"""


def _has_ucontext(compiler: Any) -> bool:
    """Whether ``compiler`` compiles and links :data:`UCONTEXT_PROBE` (macOS and Windows: not asked, the
    core's interleave.h decides there)."""
    with tempfile.TemporaryDirectory(prefix="yukon-probe-") as tmp:
        source = Path(tmp) / "ucontext_probe.c"
        source.write_text(UCONTEXT_PROBE)
        try:
            objects = compiler.compile([str(source)], output_dir=tmp)
            compiler.link_executable(objects, "ucontext_probe", output_dir=tmp)
        except Exception:  # CompileError, LinkError: no usable ucontext
            return False
    return True


def _is_gcc(command: list[str]) -> bool:
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


class ProfileGuidedBuild(build_ext):
    """``build_ext`` that trains GCC's branch profile before the final build of the core."""

    def build_extension(self, ext: Extension) -> None:
        self._choose_interleave(ext)
        compiler = getattr(self.compiler, "compiler_so", None)
        if os.environ.get("YUKON_PGO", "1") == "0" or not compiler or not TRAINER.exists() or not _is_gcc(compiler):
            super().build_extension(ext)
            return
        profile_dir = tempfile.mkdtemp(prefix="yukon-pgo-")
        try:
            self._build_with(ext, ["-fprofile-generate", f"-fprofile-dir={profile_dir}"])
            subprocess.run([sys.executable, str(TRAINER), self.get_ext_fullpath(ext.name)], check=True, timeout=600,
                           cwd=HERE)
            self._build_with(ext, ["-fprofile-use", "-fprofile-partial-training", f"-fprofile-dir={profile_dir}",
                                   "-Wno-missing-profile"])
        except Exception as exc:  # any failure: the plain build, which works wherever this did not
            print(f"yukon: profile-guided build skipped ({exc}); building the solver core plainly", file=sys.stderr)
            self._build_with(ext, [])
        finally:
            shutil.rmtree(profile_dir, ignore_errors=True)

    def _choose_interleave(self, ext: Extension) -> None:
        forced = os.environ.get("YUKON_NO_UCONTEXT", "0") not in ("", "0")
        if forced or (sys.platform not in ("darwin", "win32") and not _has_ucontext(self.compiler)):
            print("yukon: no ucontext: the interleave takes turns between two threads", file=sys.stderr)
            ext.define_macros = [*ext.define_macros, ("YUKON_NO_UCONTEXT", "1")]
            self.force = True  # (objects built with ucontext must not be reused)

    def _build_with(self, ext: Extension, flags: list[str]) -> None:
        ext.extra_compile_args = [*BASE_FLAGS, *flags]
        ext.extra_link_args = list(flags)
        self.force = True  # (the objects of the previous step must not be reused)
        super().build_extension(ext)


setup(
    ext_modules=[
        Extension(
            "yukon.solver._core",
            CORE_SOURCES,
            depends=CORE_HEADERS,
            extra_compile_args=BASE_FLAGS,
            optional=True,
        )
    ],
    cmdclass={"build_ext": ProfileGuidedBuild},
)
