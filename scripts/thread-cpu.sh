#!/bin/bash
# Per-thread CPU seconds of a command (sampled from /proc/PID/task every 50 ms; the last 50 ms of a
# thread may be missed), busiest first, then the sum. For where a multi-threaded process spends its CPU
# (quarry import's reading thread beside its build thread, V8's helpers):
#   scripts/thread-cpu.sh node bin/quarry.js import --table t --data ./data rows.tsv
"$@" &
P=$!
declare -A cpu
while kill -0 $P 2>/dev/null; do
  for t in /proc/$P/task/*; do
    s=$(cat "$t/stat" 2>/dev/null) || continue
    set -- ${s#*) }
    cpu["${t##*/} $(cat "$t/comm" 2>/dev/null)"]=$(( ${12} + ${13} ))
  done
  sleep 0.05
done
wait $P
for k in "${!cpu[@]}"; do echo "${cpu[$k]} $k"; done | sort -rn | awk '{ s += $1; printf "%6.2f s  tid %s %s\n", $1 / 100, $2, $3 } END { printf "%6.2f s  all threads\n", s / 100 }'
