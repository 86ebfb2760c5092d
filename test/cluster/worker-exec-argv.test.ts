import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workerExecArgv } from '../../src/cluster/primary.ts';

test('API workers run with the primary\'s node flags, their semi-space set (or left as the primary\'s with 0)', () => {
    assert.deepEqual(workerExecArgv(['--import', 'tsx'], 16), ['--import', 'tsx', '--max-semi-space-size=16']);
    assert.deepEqual(workerExecArgv(['--max-semi-space-size=64', '--import', 'tsx', '--enable-source-maps'], 16), ['--import', 'tsx', '--enable-source-maps', '--max-semi-space-size=16']);
    // The primary's own setting in any spelling V8 takes is replaced, not doubled.
    assert.deepEqual(workerExecArgv(['--max_semi_space_size', '64', '--cpu-prof'], 8), ['--cpu-prof', '--max-semi-space-size=8']);
    assert.deepEqual(workerExecArgv(['--max-semi-space-size=64', '--import', 'tsx'], 0), ['--max-semi-space-size=64', '--import', 'tsx']);
});
