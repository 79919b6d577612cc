"""Build the optional compiled solver core; everything else is in pyproject.toml.

Without a C compiler the package still installs and the solver runs in pure
Python (slower): the extension is optional.

With GCC the core is built profile-guided, as chess engines and CPython are:
an instrumented build runs ``tools/pgo_train.py`` (a few seconds of search),
then the final build uses the branch profile it wrote (about 3% faster on
hard deals, docs/solver.md "What it runs on"). Anything going wrong there,
or ``YUKON_PGO=0`` in the environment, gives the plain ``-O3`` build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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


def _is_gcc(command: list[str]) -> bool:
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


class ProfileGuidedBuild(build_ext):
    """``build_ext`` that trains GCC's branch profile before the final build of the core."""

    def build_extension(self, ext: Extension) -> None:
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
