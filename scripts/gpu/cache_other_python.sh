#!/usr/bin/env bash
# Explain's on-disk caches (knowledge/index_cache.py: index.json, the compiled patterns' code, the TOML parse) on another
# machine's Python: every reading with the cache off, cold, and warm must be the same text (session 13, pf87's regex-code
# cache leans on CPython's private _sre internals, keyed by the engine). Writes $OUT/cache-other-python.txt.
set -u
out="${OUT:-/tmp}/cache-other-python.txt"
py="${PYTHON:-python3}"
{
  echo "host: $(hostname) date: $(date -u +%FT%TZ)"
  "$py" -c 'import sys,_sre; print("python", sys.version.replace("\n"," "), "_sre.MAGIC", _sre.MAGIC, "CODESIZE", _sre.CODESIZE)'
  files=$(ls fixtures/errors/round74/*.txt fixtures/errors/round83/*.txt fixtures/errors/round79/*.txt 2>/dev/null | head -60)
  n=0; differ=0
  cache=$(mktemp -d)
  for mode in off cold warm; do
    mkdir -p "/tmp/cache-$mode"
    for f in $files; do
      case $mode in
        off) ATTN_DOCTOR_CACHE_DIR= PYTHONPATH=$PWD "$py" -m attn_doctor explain --json "$f" > "/tmp/cache-$mode/$(basename "$f").json" 2>&1 ;;
        *) ATTN_DOCTOR_CACHE_DIR=$cache PYTHONPATH=$PWD "$py" -m attn_doctor explain --json "$f" > "/tmp/cache-$mode/$(basename "$f").json" 2>&1 ;;
      esac
    done
    [ "$mode" = cold ] && echo "cache after cold: $(find "$cache" -type f | wc -l) files, $(du -sh "$cache" | cut -f1)"
  done
  for f in $files; do
    b=$(basename "$f").json; n=$((n+1))
    cmp -s "/tmp/cache-off/$b" "/tmp/cache-cold/$b" && cmp -s "/tmp/cache-off/$b" "/tmp/cache-warm/$b" || { differ=$((differ+1)); echo "DIFFER $f"; }
  done
  echo "texts: $n, readings that differ between cache off / cold / warm: $differ"
  t0=$(date +%s%N); ATTN_DOCTOR_CACHE_DIR=$cache PYTHONPATH=$PWD "$py" -m attn_doctor explain fixtures/errors/round74/$(ls fixtures/errors/round74 | head -1) >/dev/null; t1=$(date +%s%N)
  echo "one warm explain: $(( (t1 - t0) / 1000000 )) ms wall"
  if "$py" -m pytest --version >/dev/null 2>&1; then ATTN_DOCTOR_CACHE_DIR= PYTHONPATH=$PWD "$py" -m pytest -q -p no:cacheprovider tests/test_index_cache.py 2>&1 | tail -3; else echo "no pytest here"; fi
} > "$out" 2>&1
cat "$out"
