"""The one build step pyproject.toml cannot declare: the contract goes into the package.

openapi.yaml lives once, at the repository's root, where people and tools
look for it. The service validates against and serves its package's copy
(service/api/contract/spec.py), so building the package copies the root
file into it. An editable install (a checkout) reads the root file itself.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CONTRACT = "openapi.yaml"


class BuildWithContract(build_py):
    """build_py, then the contract copied beside the built package's modules."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib, "service", CONTRACT)
            self.mkpath(str(target.parent))
            self.copy_file(CONTRACT, str(target))


setup(cmdclass={"build_py": BuildWithContract})
