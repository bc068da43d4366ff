"""Reference truth for Python from the compiler's own view: `ast` for occurrences, `symtable` for scopes.

Reads a repository root and a list of repository-relative .py paths on stdin (one per line); prints one JSON object:
{"defs": {name: [[path, line], ...]}, "uses": {name: [[path, line], ...]}, "unparsed": [path, ...]}

- defs: module-level functions and classes (the names a find-references user asks about).
- uses: every occurrence of those names that can name the module-level definition: a Name load or store outside a
  scope where the name is local (or free from an enclosing function's local; a name the function imports is not
  local in this sense), an attribute `x.name`, an imported name (`from m import name`, `import name`), a decorator. Definitions' own name tokens, parameters, keyword
  labels and names local to a function are not uses.
"""
import ast
import json
import os
import symtable
import sys

root = sys.argv[1]
paths = [p.strip() for p in sys.stdin if p.strip()]
defs = {}
uses = {}
unparsed = []


def add(table, name, path, line):
    table.setdefault(name, []).append([path, line])


def scope_tables(table, out):
    """symtable scopes by (kind, name, first line), for matching ast nodes."""
    for child in table.get_children():
        out[(child.get_name(), child.get_lineno())] = child
        scope_tables(child, out)


class Visitor(ast.NodeVisitor):
    def __init__(self, path, tables):
        self.path = path
        self.tables = tables
        self.stack = []  # symtable function scopes enclosing the current node
        self.classes = 0  # class bodies around it: their functions are methods, not module-level definitions

    def local_here(self, name):
        for table in reversed(self.stack):
            try:
                sym = table.lookup(name)
            except KeyError:
                continue
            if sym.is_global() or sym.is_declared_global():
                return False
            # Free here: the enclosing function that binds it decides.
            if sym.is_free():
                continue
            # A name a function imports (`from .testing import EnvironBuilder` in its body) still names that definition.
            if sym.is_imported():
                return False
            if sym.is_local() or sym.is_parameter():
                return True
        return False

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        if not self.stack and not self.classes:
            add(defs, node.name, self.path, node.lineno)
        # Arguments' defaults and annotations belong to the enclosing scope.
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs + [x for x in (node.args.vararg, node.args.kwarg) if x]:
            if a.annotation is not None:
                self.visit(a.annotation)
        if node.returns is not None:
            self.visit(node.returns)
        table = self.tables.get((node.name, node.lineno)) or self.tables.get((node.name, node.decorator_list[0].lineno if node.decorator_list else node.lineno))
        if table is not None:
            self.stack.append(table)
        for stmt in node.body:
            self.visit(stmt)
        if table is not None:
            self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        if not self.stack and not self.classes:
            add(defs, node.name, self.path, node.lineno)
        for b in node.bases + [k.value for k in node.keywords]:
            self.visit(b)
        self.classes += 1
        for stmt in node.body:
            self.visit(stmt)
        self.classes -= 1

    def visit_Lambda(self, node):
        for default in node.args.defaults:
            self.visit(default)
        self.scoped_body(node, "lambda", node.body)

    def scoped_body(self, node, name, body):
        table = self.tables.get((name, node.lineno))
        if table is not None:
            self.stack.append(table)
        self.visit(body)
        if table is not None:
            self.stack.pop()

    def comprehension(self, node, name, elts):
        table = self.tables.get((name, node.lineno))
        # The first iterable is evaluated in the enclosing scope.
        self.visit(node.generators[0].iter)
        if table is not None:
            self.stack.append(table)
        for i, g in enumerate(node.generators):
            self.visit(g.target)
            if i > 0:
                self.visit(g.iter)
            for cond in g.ifs:
                self.visit(cond)
        for e in elts:
            self.visit(e)
        if table is not None:
            self.stack.pop()

    def visit_ListComp(self, node):
        self.comprehension(node, "listcomp", [node.elt])

    def visit_SetComp(self, node):
        self.comprehension(node, "setcomp", [node.elt])

    def visit_GeneratorExp(self, node):
        self.comprehension(node, "genexpr", [node.elt])

    def visit_DictComp(self, node):
        self.comprehension(node, "dictcomp", [node.key, node.value])

    def visit_Name(self, node):
        if not self.local_here(node.id):
            add(uses, node.id, self.path, node.lineno)

    def visit_Attribute(self, node):
        self.visit(node.value)
        add(uses, node.attr, self.path, node.end_lineno)

    def visit_ImportFrom(self, node):
        for a in node.names:
            add(uses, a.name, self.path, a.lineno)

    def visit_Import(self, node):
        # `import a.b` names modules, not the functions and classes measured here; a plain `import name` counts.
        for a in node.names:
            if "." not in a.name:
                add(uses, a.name, self.path, a.lineno)


for path in paths:
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        tree = ast.parse(text)
        top = symtable.symtable(text, path, "exec")
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
        unparsed.append(path)
        continue
    tables = {}
    scope_tables(top, tables)
    Visitor(path, tables).visit(tree)

json.dump({"defs": defs, "uses": uses, "unparsed": unparsed}, sys.stdout)
