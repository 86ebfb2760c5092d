import os, re, subprocess, sys
# usage: mvtest.py old new  (test files: rewrite relative imports after moving)
old, new = sys.argv[1], sys.argv[2]
os.makedirs(os.path.dirname(new), exist_ok=True)
subprocess.check_call(['git', 'mv', old, new])
s = open(new).read()
def fix(m):
    spec = m.group(2)
    target = os.path.normpath(os.path.join(os.path.dirname(old), spec))
    rel = os.path.relpath(target, os.path.dirname(new))
    if not rel.startswith('.'): rel = './' + rel
    return m.group(1) + rel + m.group(3)
s = re.sub(r"""((?:from|import)\s*\(?\s*['"])(\.{1,2}/[^'"]+)(['"])""", fix, s)
s = re.sub(r"""(new URL\(['"])(\.{1,2}/[^'"]+)(['"], import\.meta\.url)""", fix, s)
open(new, 'w').write(s)
