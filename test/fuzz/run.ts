import { parseArgs } from 'node:util';
import { startDevnetService, waitForSeed } from '../helpers/devnet-service.ts';
import { collectFuzzContext } from './fuzz-context.ts';
import { formatReport, memoryWithinLimits, runFuzz } from './fuzz-runner.ts';

/**
 * `npm run fuzz -- --cases N [--seed S] [--first I] [--concurrency C]`: a devnet service on loopback, its
 * seed activity indexed, then N generated requests (test/fuzz/fuzz-runner.ts); prints the figures
 * and every failure with the seed that replays it. Exits 1 when anything failed.
 */
const { values } = parseArgs({
    options: {
        cases: { type: 'string', default: '1000' },
        seed: { type: 'string' },
        first: { type: 'string', default: '0' },
        concurrency: { type: 'string', default: '2' },
    },
});
const cases = Number(values.cases);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const first = Number(values.first);
if (!Number.isSafeInteger(cases) || cases < 1 || !Number.isSafeInteger(seed) || !Number.isSafeInteger(first) || first < 0) {
    console.error('usage: npm run fuzz -- --cases N [--seed S] [--first I] [--concurrency C]');
    process.exit(2);
}

const service = await startDevnetService();
let failed = true;
try {
    await waitForSeed(service);
    const ctx = await collectFuzzContext(service);
    console.log(`devnet ready: ${ctx.addresses.length} addresses, ${ctx.txHashes.length} transactions, ${ctx.blockIds.length} blocks, ${ctx.bocs.length} real BOCs; fuzzing ${cases} cases from seed ${seed}`);
    let last = 0;
    const report = await runFuzz({
        base: service.base, ctx, cases, seed, first, concurrency: Number(values.concurrency),
        progress: done => {
            if (done - last >= 1000 || done === cases) {
                last = done;
                console.log(`  ${done}/${cases}`);
            }
        },
    });
    console.log(`date ${new Date().toISOString()}, node ${process.version}`);
    console.log(formatReport(report));
    failed = report.failures.length > 0 || !report.aliveAfter || !memoryWithinLimits(report);
} finally {
    await service.dispose();
}
process.exit(failed ? 1 : 0);
