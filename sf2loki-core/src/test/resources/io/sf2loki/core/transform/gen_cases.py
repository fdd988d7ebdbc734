"""Generates python-cases.json: the 1.x (Python re / fnmatch / hashlib) answers the Java transform
engine must reproduce (SPEC XF-2, XF-5, XF-11). Run with Python 3.11+:
    python3 gen_cases.py > python-cases.json
"""
import fnmatch
import hashlib
import json
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

def main():
    subs = [{"pattern": p, "replacement": r, "input": i, "output": re.sub(p, r, i)} for p, r, i in SUB]
    globs = [{"glob": g, "text": t, "matches": fnmatch.fnmatchcase(t, g)} for g, t in GLOBS]
    hashes = [{"salt": s, "text": t, "hash": hashlib.sha256((s + t).encode()).hexdigest()[:16]}
              for s, t in HASH]
    json.dump({"python": sys.version.split()[0], "sub": subs, "glob": globs, "hash": hashes},
              sys.stdout, ensure_ascii=True, indent=1)
    sys.stdout.write("\n")

main()
