"""The /docs assets in service/static/docs/ are the files of the swagger-ui-dist that package-lock.json pins."""

from __future__ import annotations

import json

from tools import vendor_docs


def test_the_vendored_files_are_the_recorded_ones_of_the_locked_version():
    assert vendor_docs.check() == []


def test_the_vendored_files_equal_the_installed_package():
    installed = json.loads((vendor_docs.INSTALLED / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == vendor_docs.locked_entry()["version"]
    for name in vendor_docs.FILES:
        assert (vendor_docs.DESTINATION / name).read_bytes() == (vendor_docs.INSTALLED / name).read_bytes(), (
            name
        )


def test_swagger_ui_is_version_5_which_reads_openapi_3_1():
    recorded = json.loads(vendor_docs.RECORD.read_text(encoding="utf-8"))
    assert recorded["package"] == "swagger-ui-dist"
    assert int(recorded["version"].split(".")[0]) >= 5
