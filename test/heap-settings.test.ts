import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config/config.ts';
import { heapFlags, heapGrowthPercent } from '../src/heap-settings.ts';

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

test('a process running the chain writer keeps pretenuring and caps its growth; an API-only process turns pretenuring off', () => {
    assert.deepEqual(heapFlags(null, true), ['--heap-growing-percent=25']);
    assert.deepEqual(heapFlags(null, false), ['--heap-growing-percent=0', '--no-allocation-site-pretenuring']);
    assert.deepEqual(heapFlags(60, false), ['--heap-growing-percent=60', '--no-allocation-site-pretenuring']);
    assert.deepEqual(heapFlags(0, true), ['--heap-growing-percent=0']);
});
