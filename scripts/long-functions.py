#!/usr/bin/env python3
"""Lists the C++ functions longer than a limit (lines from the signature's first
line to the closing brace), longest first; exits 1 when there is one.

Usage: scripts/long-functions.py [--limit N] [DIR_OR_FILE ...]
  --limit N  the most lines a function may have (default 80)
  default    the project's own code: app engine ui tests

A reader's measure, not a parser: comments, strings and preprocessor lines are
blanked, then each brace block whose opening follows a parenthesis, directly
inside a namespace, a class or the file, is a function (a lambda counts in the
function that holds it)."""
import os
import re
import sys

CONTAINER = re.compile(r'\b(namespace|class|struct|union|enum)\b[^()]*$|extern\s+"\s*"\s*$|^\s*$')


def blank(text):
    """Comments, string and character literals and preprocessor lines as spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            j = i
            while j < n and (text[j] != '\n' or text[j - 1] == '\\'):
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '\n':
            at_line_start = True
            out.append(c)
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            k = text.find('(', i)
            delim = ')' + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
            out.append('""' + re.sub(r'[^\n]', ' ', text[i + 2:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(c)
                i += 1
                continue
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def functions(path):
    text = blank(open(path, encoding='utf-8', errors='replace').read())
    stack = []  # (kind, start offset of its head)
    last_stop = 0  # where the current statement began
    for m in re.finditer(r'[{};]', text):
        c, at = m.group(), m.start()
        if c == ';':
            last_stop = at + 1
        elif c == '{':
            head = text[last_stop:at]
            inside_scope = all(kind == 'scope' for kind, _ in stack)
            if CONTAINER.search(head) or (stack and stack[-1][0] == 'scope' and '(' not in head):
                kind = 'scope' if inside_scope and '(' not in head or CONTAINER.search(head) else 'block'
            elif inside_scope and '(' in head:
                kind = 'function'
            else:
                kind = 'block'
            start = last_stop + (len(head) - len(head.lstrip()))
            stack.append((kind, start))
            last_stop = at + 1
        else:
            if stack:
                kind, start = stack.pop()
                if kind == 'function':
                    first = text.count('\n', 0, start) + 1
                    last = text.count('\n', 0, at) + 1
                    name = re.findall(r'([~\w:]+)\s*\(', text[start:text.index('{', start)] if '{' in text[start:] else '')
                    yield first, last - first + 1, (name[0] if name else '?')
            last_stop = at + 1


def main(argv):
    limit = 80
    if len(argv) >= 2 and argv[0] == '--limit':
        limit, argv = int(argv[1]), argv[2:]
    roots = argv or ['app', 'engine', 'ui', 'tests']
    found = []
    for root in roots:
        paths = [root] if os.path.isfile(root) else [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
        for p in sorted(paths):
            if p.endswith(('.cpp', '.hpp', '.h', '.cc', '.cl')):
                found += [(length, p, line, name) for line, length, name in functions(p) if length > limit]
    for length, p, line, name in sorted(found, reverse=True):
        print(f'{length:4d} lines  {p}:{line}  {name}')
    if found:
        sys.stdout.flush()
        print(f'{len(found)} function(s) over {limit} lines', file=sys.stderr)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
