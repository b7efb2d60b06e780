#!/usr/bin/env bash
# A cluster of `mock serve` instances on this machine, for real: Redis holds their shared state
# (state.store redis) and haproxy balances them round robin, health-checking /__mock/health.
# Runs in the foreground; Ctrl-C (or SIGTERM) stops everything it started.
#
#   scripts/cluster.sh [options] [-- mock serve options…]
#
#   --instances N     mock serve instances (3)
#   --port P          haproxy's port, the cluster's address (8080)
#   --stats-port S    haproxy's statistics page, CSV at /;csv (8081)
#   --first-port F    the instances listen on F, F+1, … (3101)
#   --redis-url URL   a Redis that runs already; otherwise redis-server is started on --redis-port
#   --redis-port R    (6380)
#
# Example: scripts/cluster.sh -- --spec examples/petstore.yaml --admin-embed
# Needs redis-server and haproxy (Debian: apt-get install -y redis-server haproxy).
set -euo pipefail

instances=3 port=8080 stats_port=8081 first_port=3101 redis_url='' redis_port=6380
while [ $# -gt 0 ]; do
  case "$1" in
    --instances) instances=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --stats-port) stats_port=$2; shift 2 ;;
    --first-port) first_port=$2; shift 2 ;;
    --redis-url) redis_url=$2; shift 2 ;;
    --redis-port) redis_port=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster: unknown option $1 (scripts/cluster.sh --help lists them; mock serve options go after --)" >&2; exit 2 ;;
  esac
done
for tool in haproxy node curl; do
  command -v "$tool" > /dev/null || { echo "cluster: $tool is not installed (Debian: apt-get install -y $tool)" >&2; exit 1; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 0' INT TERM

if [ -z "$redis_url" ]; then
  command -v redis-server > /dev/null || { echo 'cluster: redis-server is not installed (Debian: apt-get install -y redis-server), or pass --redis-url' >&2; exit 1; }
  # appendfsync always: an answered write survives a crash of Redis itself
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir "$work" > "$work/redis.log" 2>&1 &
  pids+=($!)
  redis_url="redis://127.0.0.1:$redis_port"
  echo "cluster: redis-server on 127.0.0.1:$redis_port (pid $!)"
fi

servers=''
for i in $(seq 1 "$instances"); do
  p=$((first_port + i - 1))
  MOCK_STATE_STORE=redis MOCK_REDIS_URL="$redis_url" node "$root/bin/run.js" serve --host 127.0.0.1 --http-port "$p" --out "$work/build-$i" "$@" > "$work/mock-$i.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do
    grep -q 'serving on' "$work/mock-$i.log" && break
    kill -0 "${pids[-1]}" 2> /dev/null || { echo "cluster: mock instance $i did not start:" >&2; cat "$work/mock-$i.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "cluster: mock instance $i on http://127.0.0.1:$p (pid ${pids[-1]}, log $work/mock-$i.log)"
  servers+="  server mock$i 127.0.0.1:$p check"$'\n'
done

# uWebSockets.js (the default backend) answers HTTP/1.0 with 505, and `option httpchk` alone
# sends HTTP/1.0: the check must say HTTP/1.1 (and so send a Host).
cat > "$work/haproxy.cfg" << EOF
global
  maxconn 4096
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  # a request sent to an instance that just died (refused, or its kept-alive connection closed
  # without an answer) is tried again on another
  retries 2
  option redispatch
  retry-on conn-failure empty-response response-timeout
frontend cluster
  bind 127.0.0.1:$port
  default_backend mocks
backend mocks
  balance roundrobin
  option httpchk
  http-check send meth GET uri /__mock/health ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
  http-response set-header X-Mock-Instance %s
$servers
listen stats
  bind 127.0.0.1:$stats_port
  stats enable
  stats uri /
EOF
haproxy -f "$work/haproxy.cfg" -db > "$work/haproxy.log" 2>&1 &
pids+=($!)
echo "cluster: haproxy on http://127.0.0.1:$port (pid $!, statistics http://127.0.0.1:$stats_port/)"

# ready once haproxy's checks see every instance up
for _ in $(seq 1 100); do
  up=$( (curl -s "http://127.0.0.1:$stats_port/;csv" || true) | awk -F, '$1 == "mocks" && $2 ~ /^mock/ && $18 == "UP"' | wc -l)
  [ "$up" -eq "$instances" ] && break
  sleep 0.1
done
[ "$up" -eq "$instances" ] || { echo "cluster: haproxy sees $up of $instances instances up:" >&2; cat "$work/haproxy.log" >&2; exit 1; }
echo "cluster: ready, $instances instances behind http://127.0.0.1:$port"
wait
