"""The TypeScript client as a new project gets it: `npm pack`, installed from the tarball, a whole game played.

The package is set up in a copy of clients/typescript/ (its own node_modules)
and packed with `npm pack`, whose prepack builds it. The tarball must hold
the built client with its declarations (the generated api.d.ts among them:
it must not need the repository) and no tests or examples, and name no
dependency, so an empty project (`npm init -y`) installs it with `npm install
--offline`: nothing from the registry. There, tests/data/typescript_package/
game.mts imports "patchwork-client", is type-checked by tsc --strict against
the installed declarations (a `@ts-expect-error` in it proves they are types,
not `any`), and plays both seats of a game to its end against a live service,
then asks for its analysis (pending: no bot worker here).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import requests

from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis
from tests.support.typescript_client import NODE_MODULES, ROOT, build_client, node_env, npm

GAME = ROOT / "tests" / "data" / "typescript_package" / "game.mts"

# What the new project compiles with: strict, as the client itself is, against the installed declarations.
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "exactOptionalPropertyTypes": True,
        "noUncheckedIndexedAccess": True,
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "lib": ["ES2022", "DOM", "DOM.Iterable"],
        # @types/node from the client's own node_modules: the new project installs nothing else.
        "typeRoots": [str(NODE_MODULES / "@types")],
        "types": ["node"],
        "skipLibCheck": False,
    },
    "files": ["game.mts"],
}


def pack(tmp_path: Path) -> Path:
    package = build_client(tmp_path / "client", build=False)
    destination = tmp_path / "packed"
    destination.mkdir()
    npm(package, "pack", "--pack-destination", str(destination))
    [tarball] = destination.glob("*.tgz")
    return tarball


def test_the_packed_client_installs_into_an_empty_project_and_plays_a_whole_game(tmp_path):
    tarball = pack(tmp_path)
    with tarfile.open(tarball) as packed:
        files = {name.removeprefix("package/") for name in packed.getnames()}
        manifest = json.load(packed.extractfile("package/package.json"))  # type: ignore[arg-type]
    for needed in (
        "package.json",
        "README.md",
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/src/api.d.ts",
    ):
        assert needed in files, f"the tarball lacks {needed}: {sorted(files)}"
    assert not [name for name in files if name.startswith(("dist/test/", "dist/examples/", "src/", "test/"))]
    assert manifest["name"] == "patchwork-client"
    assert not manifest.get("dependencies"), "a run-time dependency: the install would need the registry"

    app = tmp_path / "app"
    app.mkdir()
    npm(app, "init", "-y")
    npm(app, "install", "--offline", "--no-audit", "--no-fund", str(tarball))
    installed = json.loads((app / "node_modules" / "patchwork-client" / "package.json").read_text())
    assert installed["version"] == manifest["version"]
    shutil.copy(GAME, app / "game.mts")
    (app / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2))
    compiled = subprocess.run(
        [str(NODE_MODULES / ".bin" / "tsc"), "--project", "tsconfig.json"],
        cwd=app,
        env=node_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert compiled.returncode == 0, f"tsc failed in the new project:\n{compiled.stdout}\n{compiled.stderr}"

    with (
        ThrowawayRedis(tmp_path / "redis") as redis,
        LiveService(redis.url, tmp_path / "web.log", workers=1) as web,
    ):
        run = subprocess.run(
            ["node", "game.mjs"],
            cwd=app,
            env={**node_env(), "PATCHWORK_URL": web.url},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, (
            f"the game failed:\n{run.stdout}\n{run.stderr}\nweb log:\n{web.log()[-3000:]}"
        )
        seen = json.loads(run.stdout.strip().splitlines()[-1])
        print(seen)
        game = requests.get(f"{web.url}/games/{seen['id']}", timeout=10).json()

    assert game["status"] == "finished" == seen["status"]
    assert seen["result"] == game["result"] == seen["ended"], "the stream's end is the game's result"
    assert seen["moves"] > 10
    assert seen["record_moves"] == seen["moves"]
    assert seen["record_starts"] == "[", "a record begins with its tags"
    assert (seen["asked"], seen["analysis"]) == ("pending", "pending")
    assert seen["refused"] is not None, "a move after the end was not refused"
