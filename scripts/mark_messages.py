"""Mark user-facing error messages for translation (a source rewrite, safe to run again).

Every English message that reaches a user through an exception — ``raise SomeError(f"...")``
of a project error class, ``ApiError(status, f"...")``, the CLI's ``_fail(f"...")`` — becomes
``N_("template {name}", name=expr)`` (``citybuilders.core.i18n.N_``): the same English text
now, translated where it is printed (``localize``). ``str(exc)`` passed on in those places
becomes ``message_of(exc)`` so a wrapped message keeps its template.

Usage: ``python scripts/mark_messages.py [FILE...]`` (default: the whole package). Prints the
files it changed. Messages it cannot rewrite (nested format specs) are left as they are.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "src" / "citybuilders"
BUILTIN_ERRORS = {n for n in dir(__builtins__) if n.endswith("Error")} | {"Exception"}
WIDTH = 99


def _lit(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _name_for(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        sl = node.slice
        if isinstance(sl, ast.Constant) and isinstance(sl.value, str) and sl.value.isidentifier():
            return sl.value
        return _name_for(node.value)
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name) and f.id == "len":
            return "count"
        if isinstance(f, ast.Attribute) and f.attr == "join":
            return "allowed" if True else "items"
        if isinstance(f, ast.Name) and f.id in ("repr", "str", "int", "float") and node.args:
            return _name_for(node.args[0])
        if isinstance(f, ast.Name):
            return f.id
        if isinstance(f, ast.Attribute):
            return f.attr
    if isinstance(node, ast.BinOp):
        return _name_for(node.left)
    return "value"


def _template(node: ast.expr, src: str) -> tuple[str, list[tuple[str, str]]] | None:
    """(template, [(param, expression source)]) of a str constant or f-string; None when it
    cannot be rewritten."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        # "text {x}: " + ", ".join(...): the right side becomes one more placeholder
        left = _template(node.left, src)
        if left is None:
            return None
        if not left[1]:
            left = (left[0].replace("{", "{{").replace("}", "}}"), [])
        right = _template(node.right, src)
        if right is None:
            expr = ast.get_source_segment(src, node.right)
            if expr is None:
                return None
            expr = " ".join(expr.split())
            taken = {p for p, _ in left[1]}
            base = _name_for(node.right).lstrip("_") or "value"
            name, k = base, 2
            while name in taken:
                name = f"{base}{k}"
                k += 1
            right = ("{" + name + "}", [(name, expr)])
        else:
            taken = {p for p, _ in left[1]}
            if any(p in taken for p, _ in right[1]):
                return None
            if not right[1]:
                right = (right[0].replace("{", "{{").replace("}", "}}"), [])
        if not left[1] and not right[1]:
            return None  # plain constants: nothing to gain
        return left[0] + right[0], left[1] + right[1]
    if not isinstance(node, ast.JoinedStr):
        return None
    parts: list[str] = []
    params: list[tuple[str, str]] = []
    by_src: dict[str, str] = {}
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value).replace("{", "{{").replace("}", "}}"))
            continue
        assert isinstance(v, ast.FormattedValue)
        expr = ast.get_source_segment(src, v.value)
        if expr is None:
            return None
        expr = " ".join(expr.split())
        spec = ""
        if v.format_spec is not None:
            if not all(isinstance(x, ast.Constant) for x in v.format_spec.values):  # type: ignore[attr-defined]
                return None
            spec = ":" + "".join(str(x.value) for x in v.format_spec.values)  # type: ignore[attr-defined]
        conv = "" if v.conversion == -1 else "!" + chr(v.conversion)
        name = by_src.get(expr)
        if name is None:
            base = _name_for(v.value)
            if base.startswith("_"):
                base = base.lstrip("_") or "value"
            if base in ("self", "cls"):
                base = "value"
            name = base
            k = 2
            taken = {p for p, _ in params}
            while name in taken:
                name = f"{base}{k}"
                k += 1
            by_src[expr] = name
            params.append((name, expr))
        parts.append("{" + name + conv + spec + "}")
    return "".join(parts), params


def _render(template: str, params: list[tuple[str, str]], col: int) -> str:
    args = "".join(f", {p}={e}" for p, e in params)
    one = f"N_({_lit(template)}{args})"
    if col + len(one) <= WIDTH:
        return one
    # split the template at spaces into literals that fit, one per line
    pad = " " * (col + 3)
    room = max(30, WIDTH - col - 6)
    chunks: list[str] = []
    cur = ""
    for word in re.split(r"(?<= )", template):
        if cur and len(_lit(cur + word)) > room:
            chunks.append(cur)
            cur = word
        else:
            cur += word
    if cur:
        chunks.append(cur)
    lines = [_lit(c) for c in chunks]
    body = ("\n" + pad).join(lines)
    tail = args
    if params and len(lines[-1]) + len(pad) + len(tail) + 1 > WIDTH:
        tail = "," + ("\n" + pad) + ", ".join(f"{p}={e}" for p, e in params)
    return f"N_({body}{tail})"


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")


class _Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.targets: list[ast.expr] = []
        self.strcalls: list[ast.Call] = []

    def _take(self, node: ast.expr | None) -> None:
        if node is None:
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "str" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in ("exc", "e", "err"):
            self.strcalls.append(node)
        elif isinstance(node, (ast.JoinedStr, ast.Constant, ast.BinOp)):
            self.targets.append(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        c = node.exc
        if isinstance(c, ast.Call):
            name = _callee(c)
            if name.endswith("Error") and name not in BUILTIN_ERRORS and name != "ApiError" \
                    and c.args:
                self._take(c.args[0])
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _callee(node)
        if name == "ApiError" and len(node.args) >= 2:
            self._take(node.args[1])
        elif name == "_fail" and node.args:
            self._take(node.args[0])
        elif name == "_err" and len(node.args) >= 2:  # Roll Builder's loader: _err(where, problem)
            self._take(node.args[1])
        self.generic_visit(node)


def _offset(lines: list[str], lineno: int, col: int) -> int:
    return sum(len(x) for x in lines[:lineno - 1]) + len(lines[lineno - 1].encode()[:col].decode())


def rewrite(path: Path) -> bool:
    src = path.read_text(encoding="utf-8")
    if re.search(r"^N_\b[^\n]*=", src, flags=re.M):  # the module has its own N_ (a constant)
        return False
    tree = ast.parse(src)
    f = _Finder()
    f.visit(tree)
    lines = src.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    for node in f.targets:
        got = _template(node, src)
        if got is None:
            continue
        template, params = got
        if not template.strip() or not re.search(r"[A-Za-z]{2}", template):
            continue
        start = _offset(lines, node.lineno, node.col_offset)
        end = _offset(lines, node.end_lineno or node.lineno, node.end_col_offset or 0)
        col = len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        edits.append((start, end, _render(template, params, col)))
    for node in f.strcalls:
        start = _offset(lines, node.lineno, node.col_offset)
        end = _offset(lines, node.end_lineno or node.lineno, node.end_col_offset or 0)
        edits.append((start, end, f"message_of({node.args[0].id})"))  # type: ignore[attr-defined]
    if not edits:
        return False
    out = src
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    out = _add_import(path, out, need_message_of=bool(f.strcalls))
    if out == src:
        return False
    ast.parse(out)
    path.write_text(out, encoding="utf-8")
    return True


def _add_import(path: Path, src: str, need_message_of: bool) -> str:
    rel = path.resolve().relative_to(PKG)
    depth = len(rel.parts) - 1
    mod = ("." * (depth + 1) + "core.i18n") if rel.parts[0] != "core" else ".i18n"
    if rel.parts[0] == "core" and depth == 1:
        mod = ".i18n"
    names = [n for n in ["N_"] + (["message_of"] if need_message_of else [])
             if not re.search(rf"^from {re.escape(mod)} import [^\n]*\b{n}\b", src, flags=re.M)]
    if not names:
        return src
    m = re.search(rf"^from {re.escape(mod)} import ([^\n]+)$", src, flags=re.M)
    if m and " as " in m.group(1):
        m = None
    if m and "(" not in m.group(1):
        have = [x.strip() for x in m.group(1).split(",")]
        add = [n for n in names if n not in have]
        if not add:
            return src
        return src[:m.start(1)] + ", ".join(sorted(have + add)) + src[m.end(1):]
    if m:  # a parenthesised import: add a second line
        pass
    line = f"from {mod} import {', '.join(names)}\n"
    if line in src:
        return src
    # after the last top-level relative import, else after "from __future__"
    tops = list(re.finditer(r"^from \.+[\w.]* import (?:\([^)]*\)|[^\n]*)\n", src, flags=re.M))
    if tops:
        at = tops[-1].end()
    else:
        fut = re.search(r"^from __future__ import [^\n]*\n", src, flags=re.M)
        at = fut.end() if fut else 0
        line = "\n" + line
    return src[:at] + line + src[at:]


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted(
        p for p in PKG.rglob("*.py") if "migrations" not in p.parts and p.name != "i18n.py")
    for p in files:
        if rewrite(p):
            print(p.relative_to(ROOT) if p.is_absolute() else p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
