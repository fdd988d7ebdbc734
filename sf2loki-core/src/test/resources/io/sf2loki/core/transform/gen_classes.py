"""Writes python-classes.txt: the code points Python's re (1.x) puts in \\w, \\d, \\s, and the code
points unassigned in Python's Unicode version (skipped by the comparison: a newer JDK assigns them).
    python3 gen_classes.py > python-classes.txt
"""
import re
import sys
import unicodedata

def ranges(pred):
    out, start = [], None
    for c in range(0x110001):
        inside = c <= 0x10FFFF and not (0xD800 <= c <= 0xDFFF) and pred(chr(c))
        if inside and start is None:
            start = c
        elif not inside and start is not None:
            out.append("%x" % start if start == c - 1 else "%x-%x" % (start, c - 1))
            start = None
    return ",".join(out)

print("# python", sys.version.split()[0], "unicode", unicodedata.unidata_version)
for name, rx in (("w", r"\w"), ("d", r"\d"), ("s", r"\s")):
    p = re.compile(rx)
    print(name, ranges(lambda ch: p.match(ch) is not None))
print("cn", ranges(lambda ch: unicodedata.category(ch) == "Cn"))
