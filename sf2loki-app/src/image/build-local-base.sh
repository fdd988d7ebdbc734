#!/usr/bin/env bash
# Builds the offline base image for `-Pimage` (SPEC DEP-2, DESIGN "Container image"): a docker-archive
# tarball with one layer holding a Java runtime jlinked from the build JDK at /opt/java/openjdk
# (the path and env the Eclipse Temurin images use), the shared libraries it and the launcher need
# (copied from this build machine, found with ldd), bash/env/nproc for bin/sf2loki, an /etc/passwd
# with sf2loki (10001:10001) and a world-writable /tmp. Jib reads it as `tar://` base image, so the
# image builds with no registry and no Docker daemon. The release image uses the digest-pinned
# Temurin JRE instead (-Pimage,release-image).
#
# usage: build-local-base.sh JDK_HOME OUT_TAR
set -euo pipefail
jdk="$1"
out="$2"
# up to date: newer than this script and than the JDK it was made from (`mvn clean` forces a rebuild)
if [ -f "$out" ] && [ "$out" -nt "$0" ] && [ "$out" -nt "$jdk/release" ]; then
  echo "local base image: $out is up to date"
  exit 0
fi
work="$(dirname "$out")/local-base"
rm -rf "$work" "$out"
root="$work/rootfs"
mkdir -p "$root"

# a JRE: the runtime modules of the Temurin JRE, no compiler, jshell or jlink
modules="java.se,jdk.unsupported,jdk.httpserver,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.zipfs,jdk.naming.dns"
modules="$modules,jdk.net,jdk.management,jdk.management.agent,jdk.management.jfr,jdk.jfr"
modules="$modules,jdk.charsets,jdk.security.auth,jdk.security.jgss,jdk.nio.mapmode,jdk.sctp,jdk.jcmd"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --generate-cds-archive --output "$root/opt/java/openjdk"

mkdir -p "$root/usr/bin" "$root/usr/lib" "$root/usr/lib64" "$root/etc" "$root/tmp"
ln -s usr/bin "$root/bin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
for b in bash env nproc; do cp -L "/usr/bin/$b" "$root/usr/bin/$b"; done
ln -s bash "$root/usr/bin/sh"

# shared libraries of the JVM (not of the AWT/X11/sound libraries a headless daemon never loads)
elves=("$root/usr/bin/bash" "$root/usr/bin/env" "$root/usr/bin/nproc" "$root/opt/java/openjdk/bin/java"
  "$root/opt/java/openjdk/lib/server/libjvm.so")
for so in "$root"/opt/java/openjdk/lib/*.so; do
  case "${so##*/}" in libawt_xawt.so | libsplashscreen.so | libjawt.so | libjsound.so) ;; *) elves+=("$so") ;; esac
done
for e in "${elves[@]}"; do
  ldd "$e" | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}'
done | sort -u | while read -r lib; do
  case "$lib" in "$root"/*) continue ;; esac
  dest="$root/usr${lib#/usr}"
  mkdir -p "$(dirname "$dest")"
  cp -L "$lib" "$dest"
done

printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nsf2loki:x:10001:10001:sf2loki:/tmp:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nsf2loki:x:10001:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
chmod 1777 "$root/tmp"

# one reproducible layer: sorted names, fixed times, root ownership
layer="$work/layer.tar"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$root" -cf "$layer" .
diff_id="sha256:$(sha256sum "$layer" | cut -d' ' -f1)"
java_version="$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$jdk/release")"
cat >"$work/config.json" <<JSON
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:00Z",
 "config":{"Env":["PATH=/opt/java/openjdk/bin:/usr/bin:/bin","JAVA_HOME=/opt/java/openjdk","LANG=C.UTF-8","JAVA_VERSION=$java_version"],
  "Labels":{"io.sf2loki.base":"local jlink of the build JDK $java_version (not a release base)"}},
 "rootfs":{"type":"layers","diff_ids":["$diff_id"]},
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"sf2loki-app/src/image/build-local-base.sh"}]}
JSON
printf '[{"Config":"config.json","RepoTags":["sf2loki-local-base:latest"],"Layers":["layer.tar"]}]\n' >"$work/manifest.json"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$work" -cf "$out" manifest.json config.json layer.tar
rm -rf "$root" "$layer"
echo "local base image: $out ($(du -h "$out" | cut -f1), runtime $java_version)"
