import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

// Short-lived garbage until the new space has grown to its limit, then that space's size in MB.
const NEW_SPACE_AT_LIMIT = `
function newSpaceAtLimit() {
    let kept = [];
    for (let i = 0; i < 3e6; i++) {
        kept.push({ i, pair: [i, i] });
        if (kept.length > 200000) kept = [];
    }
    return getHeapSpaceStatistics().find(s => s.space_name === 'new_space').space_size / 1048576;
}
`;

const THREAD = `data:text/javascript,${encodeURIComponent(`
import { getHeapSpaceStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
${NEW_SPACE_AT_LIMIT}
parentPort.postMessage(newSpaceAtLimit());
`)}`;

// A process started with the main thread's flag, as npm start runs: its main thread's new space and a thread's.
const PROCESS = `
import { getHeapSpaceStatistics } from 'node:v8';
import { startModuleThread } from ${JSON.stringify(new URL('../../src/chain/module-thread.ts', import.meta.url).href)};
${NEW_SPACE_AT_LIMIT}
const before = newSpaceAtLimit();
const worker = startModuleThread(new URL(${JSON.stringify(THREAD)}), { resourceLimits: { maxYoungGenerationSizeMb: Number(process.argv[1]) } });
worker.once('message', thread => {
    process.stdout.write(JSON.stringify({ before, thread, after: newSpaceAtLimit() }));
    void worker.terminate();
});
`;

function youngGenerations(threadMb: number): { before: number; thread: number; after: number } {
    const out = execFileSync(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', '--input-type=module', '-e', PROCESS, String(threadMb)], { encoding: 'utf8' });
    return JSON.parse(out) as { before: number; thread: number; after: number };
}

test('a thread gets the young generation it asks for although the process runs with --max-semi-space-size', () => {
    for (const threadMb of [32, 64]) {
        const sizes = youngGenerations(threadMb);
        assert.equal(sizes.thread, threadMb, `a thread asking ${threadMb} MB`);
        // The main thread keeps the two 64 MB semi-spaces it started with.
        assert.equal(sizes.before, 128);
        assert.equal(sizes.after, 128);
    }
});
