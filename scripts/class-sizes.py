#!/usr/bin/env python3
"""Lists the classes of a folder by size: the lines of their declaration and
of their member functions defined outside it, and their data members.

Usage: scripts/class-sizes.py [--lines N] [--fields N] [DIR ...]
  --lines N   flag a class over N lines (default 300)
  --fields N  flag a class over N data members (default 25)
  default DIR ui
A flagged class is one that says why at its top: a comment line just above
`class NAME` that starts with "Size:" is its reason, and it is listed as
such. Exits 1 when a class over a limit gives none.

A reader's measure, as scripts/long-functions.py's: comments and strings
blanked, braces counted."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

blank = import_module('long-functions').blank


def block_end(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == '{':
            depth += 1
        elif text[i] == '}':
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


FUNCTION = re.compile(r'[\w~>\]]\s*\((?:[^()]|\([^()]*\))*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?'
                      r'(?:final\s*)?(?:=\s*(?:0|default|delete)\s*)?(?:->\s*[\w:<>,\s*&]+)?$')


def members(body):
    """The data members among the class body's declarations (depth 1)."""
    fields, depth, start = 0, 0, 0
    for i, c in enumerate(body):
        if c == '{':
            if depth == 0:
                head = body[start:i]
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                start = i + 1  # a nested type or an inline function's body ends a declaration
        elif c == ';' and depth == 0:
            decl = body[start:i].strip()
            start = i + 1
            decl = re.sub(r'^(public|private|protected)\s*:', '', decl).strip()
            if not decl or re.match(r'(using|friend|typedef|template|static_assert|enum|struct|class)\b', decl):
                continue
            if re.match(r'static\s+constexpr|static\s+const\b|static\b.*\(', decl):
                continue
            core = re.split(r'\s*=\s*(?![=])', decl, maxsplit=1)[0]  # what a default initialiser follows
            if FUNCTION.search(core) or core.endswith(')') and '(' in core and not core.rstrip(')').endswith('>'):
                continue
            fields += len([n for n in re.split(r',(?![^<(]*[>)])', core) if n.strip()])
    return fields


def classes(root):
    files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(('.hpp', '.cpp', '.h'))]
    texts = {p: open(p, encoding='utf-8', errors='replace').read() for p in files}
    blanked = {p: blank(t) for p, t in texts.items()}
    found = {}
    for p, text in blanked.items():
        for m in re.finditer(r'\bclass\s+(\w+)\s*(?:final\s*)?(?::[^{;]*)?\{', text):
            name = m.group(1)
            end = block_end(text, m.end() - 1)
            first = text.count('\n', 0, m.start()) + 1
            lines = text.count('\n', m.start(), end) + 1
            above = texts[p].split('\n')[:first - 1]
            reason = ''
            for line in reversed(above):
                if not line.strip().startswith('//'):
                    break
                if line.strip()[2:].strip().startswith('Size:'):
                    reason = line.strip()[2:].strip()
            found[name] = {'file': p, 'line': first, 'lines': lines, 'fields': members(text[m.end():end]),
                           'reason': reason}
    for p, text in blanked.items():  # member functions defined outside the class
        for m in re.finditer(r'^[^\n;{}]*?\b(\w+)::~?\w+\s*\((?:[^()]|\([^()]*\))*\)[^;{]*\{', text, re.M):
            if m.group(1) in found:
                end = block_end(text, m.end() - 1)
                found[m.group(1)]['lines'] += text.count('\n', m.start(), end) + 1
    return found


def main(argv):
    max_lines, max_fields, roots = 300, 25, []
    while argv:
        if argv[0] == '--lines':
            max_lines, argv = int(argv[1]), argv[2:]
        elif argv[0] == '--fields':
            max_fields, argv = int(argv[1]), argv[2:]
        else:
            roots.append(argv[0])
            argv = argv[1:]
    found = {}
    for root in roots or ['ui']:
        found.update(classes(root))
    failing = 0
    for name, c in sorted(found.items(), key=lambda kv: -kv[1]['lines']):
        over = c['lines'] > max_lines or c['fields'] > max_fields
        mark = ('over, says why: ' + c['reason']) if over and c['reason'] else ('OVER' if over else '')
        failing += over and not c['reason']
        print(f"{c['lines']:5d} lines {c['fields']:3d} fields  {name}  {c['file']}:{c['line']}  {mark}")
    if failing:
        sys.stdout.flush()
        print(f'{failing} class(es) over {max_lines} lines or {max_fields} fields without a reason', file=sys.stderr)
    return 1 if failing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
