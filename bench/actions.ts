/**
 * The action engine on real mainnet traces (../shared/fixtures/real-traces, 63 traces of DEX
 * swaps and deposits, mints, staking, NFT sales and protocols without an action kind): each trace
 * is rebuilt and given its interfaces and facts once, then the engine runs on it BENCH_ACTION_ROUNDS
 * times (30 by default, after 5 warm-up rounds). Reported: the time per trace of the whole engine
 * (bubbles, patterns, fallbacks, intentions) at p50 and p99 over every run, beside its floor, the
 * bubble tree alone (one bubble per transaction, the bodies' op codes read), which every engine run
 * starts with.
 */
import { performance } from 'node:perf_hooks';
import { bubblesFromTrace } from '../src/actions/bubble-from-trace.ts';
import { findActions } from '../src/actions/find-actions.ts';
import type { ActionTraceNode, TraceFacts } from '../src/actions/trace-input.ts';
import { factsOf, interfacesOf } from '../test/actions/real-traces/measure.ts';
import { readTraceFile, realTracesAvailable, replayTrace, traceFiles } from '../test/actions/real-traces/replay.ts';

function percentile(samples: number[], p: number): number {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export async function actionsBench(): Promise<void> {
    console.log('\n## Action engine on real mainnet traces\n');
    if (!realTracesAvailable()) {
        console.log('skipped: ../shared/fixtures/real-traces is not beside this clone');
        return;
    }
    const rounds = Number(process.env.BENCH_ACTION_ROUNDS ?? 30);
    const traces: Array<{ root: ActionTraceNode; facts: TraceFacts; transactions: number }> = [];
    for (const file of traceFiles()) {
        const t = readTraceFile(file.replace(/\.json$/, '').replace(/-/g, '+').replace(/_/g, '/'));
        const replayed = replayTrace(t);
        for (const node of replayed.nodes.values()) node.interfaces = interfacesOf(t, replayed.deployedCode, node.transaction.account);
        traces.push({ root: replayed.root, facts: factsOf(t), transactions: replayed.nodes.size });
    }
    const engine: number[] = [];
    const floor: number[] = [];
    for (let round = -5; round < rounds; round++) {
        for (const { root, facts } of traces) {
            let t = performance.now();
            bubblesFromTrace(root);
            const bubbles = performance.now() - t;
            t = performance.now();
            findActions(root, facts);
            const whole = performance.now() - t;
            if (round >= 0) {
                floor.push(bubbles);
                engine.push(whole);
            }
        }
    }
    const sizes = traces.map((t) => t.transactions);
    console.log(`${traces.length} traces of ${Math.min(...sizes)}–${Math.max(...sizes)} transactions (median ${percentile(sizes, 0.5)}), ${rounds} rounds each\n`);
    console.log('| per trace | p50 ms | p99 ms |');
    console.log('|---|---|---|');
    console.log(`| bubble tree alone (floor) | ${percentile(floor, 0.5).toFixed(3)} | ${percentile(floor, 0.99).toFixed(3)} |`);
    console.log(`| whole engine | ${percentile(engine, 0.5).toFixed(3)} | ${percentile(engine, 0.99).toFixed(3)} |`);
    console.log(`| ratio | ${(percentile(engine, 0.5) / percentile(floor, 0.5)).toFixed(1)}× | ${(percentile(engine, 0.99) / percentile(floor, 0.99)).toFixed(1)}× |`);
}
