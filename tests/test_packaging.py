"""A regular (non-editable) install ships every subpackage and the templates."""

from __future__ import annotations

import tomllib

from .conftest import ROOT


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    on_disk = {"vaultmem"} | {".".join(p.parent.relative_to(ROOT).parts)
                              for p in (ROOT / "vaultmem").rglob("*/__init__.py")}
    assert on_disk | {"vaultmem.templates"} == listed


def test_exported_names_are_not_shadowed_by_modules() -> None:
    import importlib
    import pkgutil

    import vaultmem

    for info in pkgutil.walk_packages(vaultmem.__path__, "vaultmem."):
        if info.name != "vaultmem.__main__":  # that one runs the CLI
            importlib.import_module(info.name)
    for name in vaultmem.__all__:
        assert not isinstance(getattr(vaultmem, name), type(vaultmem)), name
