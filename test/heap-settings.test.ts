import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config/config.ts';
import { heapGrowthPercent } from '../src/heap-settings.ts';

// A process that keeps ~50 MB of arrays alive in a ring while it replaces them (old-space garbage,
// as the devnet's producer makes), reporting the largest heap it committed.
const CHURN = `
import { getHeapStatistics } from 'node:v8';
import { applyHeapGrowth } from ${JSON.stringify(new URL('../src/heap-settings.ts', import.meta.url).href)};
applyHeapGrowth(Number(process.argv[1]));
const ring = [];
let largest = 0;
for (let round = 0; round < 12; round++) {
    for (let i = 0; i < 5000; i++) {
        ring.push(new Array(1000).fill(round));
        if (ring.length > 6000) ring.shift();
    }
    largest = Math.max(largest, getHeapStatistics().total_heap_size);
}
process.stdout.write(JSON.stringify({ largest }));
`;

function largestHeap(percent: number): number {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHURN, String(percent)], { encoding: 'utf8' });
    const { largest } = JSON.parse(out) as { largest: number };
    process.stderr.write(`heap growth ${percent} %: largest heap ${largest >> 20} MB\n`);
    return largest;
}

test('a heap growth of 20 % keeps a churning heap well below what V8 lets it grow to on its own', () => {
    const own = largestHeap(0);
    const bounded = largestHeap(20);
    // ~50 MB live: V8 on its own commits 2-4 times that; 1.2x growth stays near it.
    assert.ok(bounded < 0.7 * own, `largest heap ${bounded >> 20} MB with 20 %, ${own >> 20} MB with V8's own growth`);
    assert.ok(bounded < 170 * 2 ** 20, `largest heap ${bounded >> 20} MB with 20 %`);
});

test('--heap-growth-percent and HEAP_GROWTH_PERCENT set it; 0 is V8\'s own; out of range is refused', () => {
    assert.equal(loadConfig([]).config.heapGrowthPercent, null);
    assert.equal(loadConfig(['--heap-growth-percent', '0']).config.heapGrowthPercent, 0);
    assert.equal(loadConfig(['--heap-growth-percent=60']).config.heapGrowthPercent, 60);
    assert.equal(loadConfig([], { HEAP_GROWTH_PERCENT: '40' }).config.heapGrowthPercent, 40);
    assert.throws(() => loadConfig(['--heap-growth-percent', '-5']), /heap growth percent must be an integer from 0 to 1000/);
});

test('by default only the process running the chain writer caps its heap growth; a value given applies to every process', () => {
    assert.equal(heapGrowthPercent(null, true), 25);
    assert.equal(heapGrowthPercent(null, false), 0);
    assert.equal(heapGrowthPercent(40, false), 40);
    assert.equal(heapGrowthPercent(0, true), 0);
});

// Pages of rows, as a database driver builds a result, each alive while enough other garbage is made
// for a young collection or two, then dropped: what reaches the old generation a page, once warm.
const PAGES = `
import { getHeapSpaceStatistics } from 'node:v8';
import { applyHeapSettings } from ${JSON.stringify(new URL('../src/heap-settings.ts', import.meta.url).href)};
// V8's own heap growth, so that only pretenuring differs between the two kinds of process.
applyHeapSettings(0, process.argv[1] === 'writer');
const oldUsed = () => getHeapSpaceStatistics().find(space => space.space_name === 'old_space').space_used_size;
function rowsOfAPage() {
    const rows = [];
    for (let i = 0; i < 2000; i++) rows.push({ lt: i, hash: 'h' + i, text: 'x'.repeat(10) + i });
    return rows;
}
const other = new Array(1024);
let rows = 0;
let grown = 0;
for (let page = 0; page < 300; page++) {
    const before = oldUsed();
    const result = rowsOfAPage();
    for (let i = 0; i < 400_000; i++) other[i & 1023] = { i };
    rows += result.length;
    const after = oldUsed();
    if (page >= 150 && after > before) grown += after - before;
}
process.stdout.write(JSON.stringify({ perPage: grown / 150, rows }));
`;

function oldGenerationPerPage(kind: 'api' | 'writer'): number {
    const out = execFileSync(process.execPath, ['--max-semi-space-size=16', '--import', 'tsx', '--input-type=module', '-e', PAGES, kind], { encoding: 'utf8' });
    const { perPage } = JSON.parse(out) as { perPage: number };
    process.stderr.write(`${kind} process: ${Math.round(perPage / 1024)} KB a page reached the old generation\n`);
    return perPage;
}

test('a process that only answers the API allocates short-lived rows in the young generation; the chain writer\'s keeps V8\'s pretenuring', () => {
    const writer = oldGenerationPerPage('writer');
    const api = oldGenerationPerPage('api');
    // V8 pretenures the rows' allocation site once it sees them survive: ~100 KB of the page's ~150 KB land in the old generation.
    assert.ok(writer > 50 * 1024, `with V8's pretenuring ${Math.round(writer / 1024)} KB a page reached the old generation`);
    assert.ok(api < writer / 10, `${Math.round(api / 1024)} KB a page without pretenuring, ${Math.round(writer / 1024)} KB with it`);
});
