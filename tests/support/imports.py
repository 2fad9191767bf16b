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


def project_modules(path: Path, package: str) -> set[str]:
    """The modules of the service `path` imports: `from service.x import y` counts as service.x.y."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = next(iter(imports_of_node(node, package)))
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("service.")}


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as the path round it (first node repeated last), None when it has none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for after in sorted(graph.get(node, ())):
            found = visit(after, path + [node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None
