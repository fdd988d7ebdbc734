"""Generates python-cases.json: the 1.x (Python re / fnmatch / hashlib) answers the Java transform
engine must reproduce (SPEC XF-2, XF-5, XF-11). Run with Python 3.11+:
    python3 gen_cases.py > python-cases.json
"""
import fnmatch
import hashlib
import json
import random
import re
import sys

SUB = [
    # (pattern, replacement, input)
    (r"\d+", "#", "a1b22c333"),
    (r"\d", "#", "x\u0663\u0661\uff11y"),            # Arabic-Indic and fullwidth digits
    (r"\w+", "W", "héllo wörld_1 \u00b2\u00bd x\u0301"),  # superscript, fraction, combining mark
    (r"\s+", "_", "a \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000b\u200bc"),
    (r"\S+", "S", "a\x1cb c"),
    (r"\bfoo\b", "X", "foo foo_bar éfoo foo\u00b2 (foo)"),
    (r"\B", "-", "ab cd"),
    (r"\B", "-", ""),
    (r"\b", "|", "héllo, wörld"),
    (r"x$", "Y", "x\n"),
    (r"x$", "Y", "x\n\n"),
    (r"$", "E", "a\nb\n"),
    (r"(?m)$", "E", "a\nb\n"),
    (r"(?m)^", "^", "a\nb\n"),
    (r"^", "^", "a\nb"),
    (r"(?m)^b", "B", "a\r\nb\rb\nb"),
    (r"x\Z", "Y", "x\n"),
    (r"x\Z", "Y", "ax"),
    (r"\Aa", "A", "aaa"),
    (r".", ".", "a\rb\nc\u2028d"),
    (r"(?s).", ".", "a\nb"),
    (r"(?i)straße", "X", "STRASSE Straße STRAßE"),
    (r"(?i)é", "X", "É é e"),
    (r"(?i)σ", "X", "Σσς"),
    (r"(?i)k", "X", "kK\u212a"),
    (r"(?i)s", "X", "sS\u017f"),
    (r"(?i)[a-z]+", "X", "Hello WORLD \u212a"),
    (r"(?i)[^a]", "X", "aAb"),
    (r"[^\W\d]+", "L", "abc123 déf_4"),
    (r"[\W\d]+", "N", "ab,12 c!d"),
    (r"[\S]+", "N", "ab c\x1cd"),
    (r"[^\S\n]+", "_", "a \t\nb"),
    (r"[]a]+", "X", "a]b"),
    (r"[^]a]+", "X", "a]bc"),
    (r"[a-]+", "X", "a-b"),
    (r"[-a]+", "X", "a-b"),
    (r"[a-c-e]+", "X", "abcde-f"),
    (r"[\]\[\\^]+", "X", "a[]\\^b"),
    (r"[\t-\r]", "X", "a\tb\x0bc"),
    (r"x*", "-", "abxd"),
    (r"x*|a", "-", "a"),
    (r"a*?", "-", "aa"),
    (r"a??", "-", "ab"),
    (r"", "-", "\U0001F600a"),
    (r"(?:)", "-", "ab"),
    (r"\U0001F600".encode().decode("unicode_escape"), "E", "a\U0001F600b"),
    ("\U0001F600+", "E", "\U0001F600\U0001F600x"),
    ("[\U0001F600-\U0001F64F]", "E", "a\U0001F601b"),
    (r"(\w+)@(\w+)\.com", r"\2 at \1", "me@example.com, you@host.com"),
    (r"(?P<user>\w+)@(?P<host>\w+)", r"\g<host>/\g<user>/\g<0>/\g<2>", "a@b c@d"),
    (r"(?P<q>['\"]).*?(?P=q)", "Q", "say 'hi' and \"yo\" 'x\""),
    (r"(?i)(?P<w>a)(?P=w)", "D", "aA Aa ab"),
    (r"(a)|b", r"[\1]", "ab"),
    (r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", r"\11\10\1", "abcdefghijk"),
    (r"a", r"$1 \\ \n\t", "a"),
    (r"\d{2}", "N", "1 12 123 1234"),
    (r"\d{2,}", "N", "1 12 123 1234"),
    (r"\d{1,2}?", "N", "1234"),
    (r"a{0}", "-", "ab"),
    (r"\.\*\+\?\(\)\{\}\|\$\^", "M", "x.*+?(){}|$^y"),
    (r"\-\/\#\&\~\'\"\ \,\:\;\<\>\=\!\%\@\`", "P", "-/#&~'\" ,:;<>=!%@`"),
    (r"a|b|", "-", "abc"),
    (r"(?im)^a.$", "X", "A1\nb\na\u00e9\n"),
    (r"\w+", "W", "a\u200db \u203fc"),
    (r"[\w]+", "W", "a\u200db \u203fc \u2160"),
    (r"\d+", "D", "\u2160 \u00b2 \u0e53"),
    (r"\b\d{3}-\d{4}\b", "N", "555-1234 5551-12345 a555-1234b \u0663555-1234"),
    (r"\b[a-z]+\b", "W", "ab cd\u00e9 \u00e9ef g_h k\u0301"),
    (r"(?i)\bk\b", "K", "k \u212a ak k\u00e9"),
    (r"a\bb|a\b|\bb", "X", "a b ab"),
    (r"\b_+\b", "U", "__ a__ __b"),
    (r"\b[0-9a-f]{2,}?\b", "H", "ff 0a1 zz 12g"),
    (r"\ba*\b", "-", "aa b"),
    (r"(?:x)\b[A-Z]{1}", "-", "xA x\u00c9"),
]

GLOBS = [
    ("*", ""), ("*", "a/b"), ("a*", "abc"), ("a*", "Abc"), ("?", "\U0001F600"), ("??", "\U0001F600"),
    ("[abc]", "b"), ("[!abc]", "b"), ("[!abc]", "d"), ("[a-c]", "b"), ("[z-a]", "a"), ("[!z-a]", "q"),
    ("[]]", "]"), ("[!]]", "]"), ("[!]]", "a"), ("[a-]", "-"), ("[-a]", "-"), ("[a-c-e]", "-"),
    ("[a-c-e]", "d"), ("[a-c-e]", "e"), ("[b-a-c]", "-"), ("[b-a-c]", "c"), ("[b-a-c]", "b"),
    ("[", "["), ("[a", "[a"), ("a[", "a["), ("[]", "[]"), ("[!]", "[!]"), ("\\*", "\\x"),
    ("\\*", "\\*"), ("[\\]", "\\"), ("[^a]", "^"), ("[^a]", "b"), ("Login*", "LoginAs"),
    ("Login*", "login"), ("*.internal", "host.internal"), ("a.b", "aXb"), ("(a)", "(a)"),
    ("[&&]", "&"), ("[a-c]", "\U0001F600"), ("[\U0001F600-\U0001F64F]", "\U0001F601"),
    ("*", "a\nb"), ("?", "\n"), ("None", "None"), ("[%--]", ","), ("[%--]", "-"), ("[a--]", "b"),
]

HASH = [("", "hello"), ("pepper", "hello"), ("pepper", "203.0.113.7"), ("", ""),
        ("s\u00e9l", "\u00e9\U0001F600"), ("", "True"), ("", "nan")]

def fuzz(seed=20261203, count=400):
    """Random patterns from the XF-5 grammar, applied to random short texts."""
    rnd = random.Random(seed)
    lits = ["a", "b", "A", "\u00e9", "\u00c9", "1", "\u0663", " ", "_", "-", "\\.", "\\n", "\\t", "\\$"]
    classes = ["[ab]", "[^a]", "[a-c]", "[\\d_]", "[^\\w\n]", "[\\W]", "[\\S-]", "[]a]", "[a-]"]
    escapes = ["\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "."]
    anchors = ["^", "$", "\\A", "\\Z", "\\b", "\\B"]
    quants = ["*", "+", "?", "*?", "+?", "??", "{2}", "{1,}", "{0,2}", "{1,2}?"]

    def atom(depth):
        r = rnd.random()
        if r < 0.35:
            return rnd.choice(lits)
        if r < 0.5:
            return rnd.choice(classes)
        if r < 0.65:
            return rnd.choice(escapes)
        if r < 0.75 or depth > 2:
            return rnd.choice(anchors)
        return rnd.choice(["(", "(?:"]) + alt(depth + 1) + ")"

    def seq(depth):
        out = []
        for _ in range(rnd.randint(0, 3)):
            a = atom(depth)
            if a not in anchors and rnd.random() < 0.4:
                # XF-12: a group that can match empty takes no minimum repeat >= 2; groups get min <= 1.
                a += rnd.choice(quants if not a.endswith(")") else quants[:6] + quants[8:])
            out.append(a)
        return "".join(out)

    def alt(depth):
        return "|".join(seq(depth) for _ in range(rnd.choice([1, 1, 1, 2, 3])))

    alphabet = ["a", "b", "A", "B", "\u00e9", "\u00c9", "1", "\u0663", " ", "\n", "_", "-", ".", "\t", "$"]
    out = []
    while len(out) < count:
        flags = rnd.choice(["", "", "", "(?i)", "(?m)", "(?s)", "(?im)"])
        p = flags + alt(0)
        try:
            rx = re.compile(p)
        except re.error:
            continue
        groups = rx.groups
        repl = rnd.choice(["<>", "#", "", "\\n"] + (["<\\1>", "\\g<1>\\g<0>"] if groups else []))
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 10)))
        out.append({"pattern": p, "replacement": repl, "input": text, "output": rx.sub(repl, text)})
    return out


def main():
    subs = [{"pattern": p, "replacement": r, "input": i, "output": re.sub(p, r, i)} for p, r, i in SUB]
    subs += fuzz()
    globs = [{"glob": g, "text": t, "matches": fnmatch.fnmatchcase(t, g)} for g, t in GLOBS]
    hashes = [{"salt": s, "text": t, "hash": hashlib.sha256((s + t).encode()).hexdigest()[:16]}
              for s, t in HASH]
    json.dump({"python": sys.version.split()[0], "sub": subs, "glob": globs, "hash": hashes},
              sys.stdout, ensure_ascii=True, indent=1)
    sys.stdout.write("\n")

main()
