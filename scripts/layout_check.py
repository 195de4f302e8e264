#!/usr/bin/env python3
"""layout_check.py [BUILD] - checks that the code keeps the layout docs/ARCHITECTURE.md describes:

  1. includes point one way: each folder includes only the folders below it (the table ALLOWED,
     README's "Dependencies point one way"), so no library code includes cli/;
  2. no two source files call each other, directly or around a longer circle: the call graph
     between files, read with `nm` from BUILD's object files (default build/, so run `make`
     first), has no cycle;
  3. docs/ARCHITECTURE.md lists every source file of every room, one line each, and no file that
     is not there.

Prints what it finds and exits 1 on any violation, 0 when the layout holds."""
import collections
import glob
import os
import re
import subprocess
import sys

ALLOWED = {
    'core': {'core'},
    'data': {'core', 'data'},
    'search': {'core', 'data', 'search'},
    'selfplay': {'core', 'data', 'search', 'selfplay'},
    'tuner': {'core', 'data', 'tuner'},
    'eval': {'core', 'data', 'search', 'selfplay', 'eval'},
    'engine': {'core', 'data', 'search', 'engine'},
    'pictures': {'core', 'data', 'eval', 'pictures'},
    'training': {'core', 'data', 'search', 'selfplay', 'tuner', 'eval', 'pictures', 'training'},
    'cli': {'core', 'data', 'search', 'selfplay', 'tuner', 'eval', 'engine', 'pictures', 'training', 'cli'},
    'api': {'core', 'data', 'search', 'selfplay', 'tuner', 'api'},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def include_violations():
    bad = []
    for folder, allowed in ALLOWED.items():
        for path in sorted(glob.glob(folder + '/*.[ch]')):
            with open(path) as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in ALLOWED and m.group(1) not in allowed:
                        bad.append('%s:%d includes %s/' % (path, n, m.group(1)))
    return bad


def call_graph(build):
    defined, wanted = {}, collections.defaultdict(set)
    for folder in ALLOWED:
        for src in sorted(glob.glob(folder + '/*.c')):
            unit = src[:-2]
            obj = os.path.join(build, unit + '.o')
            if not os.path.exists(obj):
                sys.exit('layout_check: %s is missing; run make first' % obj)
            out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == 'U':
                    wanted[unit].add(parts[1])
                elif len(parts) == 3 and parts[1] in 'TDBRGSVW':
                    defined[parts[2]] = unit
    edges = collections.defaultdict(set)
    for unit, symbols in wanted.items():
        for s in symbols:
            if s in defined and defined[s] != unit:
                edges[unit].add(defined[s])
    return edges, wanted, defined


def cycles(edges):
    """Tarjan's strongly connected components with more than one file."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    return found


ARCHITECTURE = 'docs/ARCHITECTURE.md'
LISTED = re.compile(r'`([a-z_]+/[A-Za-z0-9_]+\.[ch])`')


def architecture_mismatches():
    """Files of the rooms that ARCHITECTURE.md does not list, and files it lists that are gone."""
    with open(ARCHITECTURE) as f:
        listed = {m for m in LISTED.findall(f.read()) if m.split('/')[0] in ALLOWED}
    present = {p for folder in ALLOWED for p in glob.glob(folder + '/*.[ch]')}
    return (['%s is not in %s' % (p, ARCHITECTURE) for p in sorted(present - listed)] +
            ['%s lists %s, which does not exist' % (ARCHITECTURE, p) for p in sorted(listed - present)])


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    bad = include_violations()
    for b in bad:
        print('include against the layout: ' + b)
    unlisted = architecture_mismatches()
    for u in unlisted:
        print('architecture: ' + u)
    edges, wanted, defined = call_graph(build)
    loops = cycles(edges)
    for group in loops:
        print('files that call each other: ' + ' '.join(group))
        for a in group:
            for b in group:
                if b in edges.get(a, ()):
                    calls = sorted(s for s in wanted[a] if defined.get(s) == b)
                    print('    %s -> %s: %s' % (a, b, ' '.join(calls)))
    print('%d includes against the layout, %d call loops, %d files unlisted or gone' % (len(bad), len(loops),
                                                                                    len(unlisted)))
    return 1 if bad or loops or unlisted else 0


if __name__ == '__main__':
    sys.exit(main())
