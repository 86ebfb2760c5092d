#!/usr/bin/env bash
# A/B benchmarks: base (/work/base) against head (/work/main), sequential, logs in /tmp/ab.
set -u
run() { # name dir env... -- sections
  local name=$1 dir=$2; shift 2
  echo "$(date +%T) start $name" >> /tmp/ab/progress
  (cd "$dir" && env "$@" > /tmp/ab/$name.log 2> /tmp/ab/$name.err)
  echo "$(date +%T) end $name rc $?" >> /tmp/ab/progress
}
B=/work/base; H=/work/main
bench() { echo npm run bench -- "$@"; }
run ingest-base-1 $B npm run bench -- ingest
run ingest-head-1 $H npm run bench -- ingest
run ingest-base-2 $B npm run bench -- ingest
run ingest-head-2 $H npm run bench -- ingest
run emulation-base $B npm run bench -- emulation
run emulation-head $H npm run bench -- emulation
run api-base $B BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet api
run api-head $H BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet api
run api-head-notexts $H BENCH_TRANSACTION_TEXTS=off BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet api
run jettons-base $B BENCH_JETTON_OPS=20000 npm run bench -- jettons
run jettons-head $H BENCH_JETTON_OPS=20000 npm run bench -- jettons
run lite-base $B BENCH_TRANSACTIONS=30000 npm run bench -- lite
run lite-head $H BENCH_TRANSACTIONS=30000 npm run bench -- lite
echo "$(date +%T) all done" >> /tmp/ab/progress
run ingest-head-3 $H npm run bench -- ingest
run ingest-base-3 $B npm run bench -- ingest
echo "$(date +%T) all done 2" >> /tmp/ab/progress
run devnet-head-fix $H BENCH_TRANSACTIONS=20000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
run devnet-base-2 $B BENCH_TRANSACTIONS=20000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
echo "$(date +%T) all done 3" >> /tmp/ab/progress
