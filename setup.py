"""Build the optional compiled solver core; everything else is in pyproject.toml.

Without a C compiler the package still installs and the solver runs in pure
Python (slower): the extension is optional.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "yukon.solver._core",
            ["src/yukon/solver/_core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
