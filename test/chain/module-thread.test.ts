import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagsBeforeThread, siblingModule, startModuleThread } from '../../src/chain/module-thread.ts';

test('a thread that sizes its young generation clears the process\'s --max-semi-space-size first; other threads leave it', () => {
    assert.deepEqual(flagsBeforeThread({ resourceLimits: { maxYoungGenerationSizeMb: 32 } }), ['--max-semi-space-size=0']);
    assert.deepEqual(flagsBeforeThread({ resourceLimits: { maxOldGenerationSizeMb: 512 } }), []);
    assert.deepEqual(flagsBeforeThread({}), []);
});

test('a module thread gets the resource limits it asks for; its module sits beside the caller as .ts from source, .js built', async () => {
    const module = new URL(`data:text/javascript,${encodeURIComponent(`
        import { parentPort, resourceLimits } from 'node:worker_threads';
        parentPort.postMessage(resourceLimits.maxYoungGenerationSizeMb);
    `)}`);
    const worker = startModuleThread(module, { resourceLimits: { maxYoungGenerationSizeMb: 48 } });
    const asked = await new Promise(resolve => worker.once('message', resolve));
    await worker.terminate();
    assert.equal(asked, 48);
    assert.equal(siblingModule('reading-thread', 'file:///x/chain/pool.ts').href, 'file:///x/chain/reading-thread.ts');
    assert.equal(siblingModule('reading-thread', 'file:///x/chain/pool.js').href, 'file:///x/chain/reading-thread.js');
});
