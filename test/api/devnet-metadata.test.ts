import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, eventually, manifestOf } from './api-call.ts';

let service: DevnetService;

/** A port nothing listens on right now (the devnet fixes its metadata URL at genesis, so port 0 will not do). */
async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise(resolve => server.close(resolve));
    return port;
}

before(async () => {
    service = await startDevnetService({ port: await freePort() });
    await waitForSeed(service);
});

after(async () => {
    await service?.dispose();
});

describe('off-chain metadata of the devnet tokens', () => {
    it('is served by the devnet and reaches the jetton previews through the metadata fetcher', async () => {
        const manifest = await manifestOf(service.base);
        const dpts = accountNamed(manifest, 'DPTS');
        assert.equal(dpts.metadata_uri, `${service.base}/devnet/metadata/points.json`);
        const document = await call('getDevnetMetadata', dpts.metadata_uri!);
        assert.equal(document.status, 200);
        assert.equal(document.body.symbol, 'DPTS');

        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const mint = await eventually('DPTS metadata fetched', async () => {
            const ops = (await call('getAccountJettonsHistory', `${service.base}/accounts/${bob}/jettons/history?limit=100`)).body.operations;
            const op = ops.find((o: { operation: string; jetton: { address: string; symbol: string } }) => o.operation === 'mint' && o.jetton.address === dpts.address);
            return op?.jetton.symbol === 'DPTS' ? op : undefined;
        });
        assert.equal(mint.jetton.name, 'Devnet Points');
        assert.equal(mint.jetton.decimals, 9);
    });

    it('answers 404 for a document it does not have', async () => {
        assertError(await call('getDevnetMetadata', `${service.base}/devnet/metadata/nothing.json`), 404, 'nothing.json');
    });

    it('knows only its own documents, not the names every object inherits', async () => {
        for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
            const response = await call('getDevnetMetadata', `${service.base}/devnet/metadata/${name}`);
            assertError(response, 404, `'${name}'`, 'points.json');
            assert.deepEqual(Object.keys(response.body), ['error'], `${name}: ${response.text}`);
        }
    });
});
