# Sourced by .ci/run and ./sf2loki: exports JAVA_HOME pointing at a JDK >= 21.
# Order: JAVA_HOME if it is >= 21, else the newest JDK found under /usr/lib/jvm, else fail.
_sf2loki_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -1
}
_sf2loki_pick_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    local v; v=$(_sf2loki_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  local best="" bestv=0 d v
  for d in /usr/lib/jvm/*/; do
    d=${d%/}
    [ -x "$d/bin/javac" ] || continue
    v=$(_sf2loki_major "$d")
    [ -n "$v" ] || continue
    if [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  if [ -n "$best" ] && [ "$bestv" -ge 21 ]; then echo "$best"; return 0; fi
  return 1
}
if _jdk=$(_sf2loki_pick_jdk); then
  export JAVA_HOME="$_jdk"
  export PATH="$JAVA_HOME/bin:$PATH"
else
  echo "sf2loki: no JDK >= 21 found (JAVA_HOME='${JAVA_HOME:-}' and nothing newer under /usr/lib/jvm); install JDK 21+ and set JAVA_HOME" >&2
  exit 1
fi
unset _jdk
