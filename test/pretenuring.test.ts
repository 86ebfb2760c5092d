import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

// Pages of rows, as a database driver builds a result, each alive while enough other garbage is made
// for a young collection or two, then dropped: what reaches the old generation a page, once warm.
const PAGES = `
import { getHeapSpaceStatistics } from 'node:v8';
import { applyPretenuring } from ${JSON.stringify(new URL('../src/pretenuring.ts', import.meta.url).href)};
applyPretenuring(process.argv[1] === 'writer');
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

function oldGenerationPerPage(process: 'api' | 'writer'): number {
    const out = execFileSync(globalThis.process.execPath, ['--max-semi-space-size=16', '--import', 'tsx', '--input-type=module', '-e', PAGES, process], { encoding: 'utf8' });
    const { perPage } = JSON.parse(out) as { perPage: number };
    globalThis.process.stderr.write(`${process} process: ${Math.round(perPage / 1024)} KB a page reached the old generation\n`);
    return perPage;
}

test('a process that only answers the API allocates short-lived rows in the young generation; the chain writer\'s keeps V8\'s pretenuring', () => {
    const writer = oldGenerationPerPage('writer');
    const api = oldGenerationPerPage('api');
    // V8 pretenures the rows' allocation site once it sees them survive: ~100 KB of the page's ~150 KB land in the old generation.
    assert.ok(writer > 50 * 1024, `with V8's pretenuring ${Math.round(writer / 1024)} KB a page reached the old generation`);
    assert.ok(api < writer / 10, `${Math.round(api / 1024)} KB a page without pretenuring, ${Math.round(writer / 1024)} KB with it`);
});
