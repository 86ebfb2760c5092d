#!/usr/bin/env bash
set -u
run() { local name=$1 dir=$2; shift 2; echo "$(date +%T) start $name" >> /tmp/ab/progress2; (cd "$dir" && env "$@" > /tmp/ab/$name.log 2> /tmp/ab/$name.err); echo "$(date +%T) end $name rc $?" >> /tmp/ab/progress2; }
B=/work/base; H=/work/main
run ingest2-head-1 $H npm run bench -- ingest
run ingest2-base-1 $B npm run bench -- ingest
run ingest2-head-2 $H npm run bench -- ingest
run ingest2-base-2 $B npm run bench -- ingest
run devnet2-head $H BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
run devnet2-base $B BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
run lite2-head $H BENCH_TRANSACTIONS=30000 npm run bench -- lite
run lite2-base $B BENCH_TRANSACTIONS=30000 npm run bench -- lite
echo "$(date +%T) all done" >> /tmp/ab/progress2
run ingest3-head-1 $H npm run bench -- ingest
run ingest3-base-1 $B npm run bench -- ingest
run ingest3-head-2 $H npm run bench -- ingest
run ingest3-base-2 $B npm run bench -- ingest
echo "$(date +%T) all done 2" >> /tmp/ab/progress2
run devnet3-head $H BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
run devnet3-base $B BENCH_TRANSACTIONS=30000 BENCH_DEVNET_INGEST=0 npm run bench -- devnet
echo "$(date +%T) all done 3" >> /tmp/ab/progress2
