"""What a module imports, read from its source with `ast`: every import, including
ones inside functions, whether or not a test run happens to execute them."""

from __future__ import annotations

import ast
from pathlib import Path


def imports_of(path: Path, package: str) -> set[str]:
    """Absolute module names `path` imports (relative ones resolved from `package`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names.update(imports_of_node(node, package))
    return names


def imports_of_node(node: ast.AST, package: str) -> set[str]:
    """The absolute module names one import statement names (none for any other node)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            return {f"{base}.{node.module}" if node.module else base}
        return {node.module or ""}
    return set()
