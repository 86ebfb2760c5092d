import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LitePool } from '../../src/chain/lite/lite-pool.ts';
import { LiteClientConnection } from '../../src/liteserver/lite-client.ts';
import { litePoolTransport, methodTableTransport, RoundChainReader } from '../../src/rewards/chain-reader.ts';
import { createDevnetLiteMethods } from '../../src/liteserver/devnet/devnet-lite-methods.ts';
import { startDevnetService, type DevnetService } from '../helpers/devnet-service.ts';
import { assertError, call } from './api-call.ts';

/**
 * Round rewards over real HTTP on a devnet service (default 120 s rounds: none has finished during
 * these quick checks): the route reads the devnet through its lite method table. A whole finished
 * round, recomputed field by field, is round-rewards-devnet-round.test.ts.
 */
describe('GET /v2/rewards/round-rewards on a devnet', () => {
    let service: DevnetService;
    const rewards = (query: string) => call('getRoundRewards', `${service.base}/rewards/round-rewards${query}`);

    before(async () => {
        service = await startDevnetService();
        await service.ready;
    });

    after(async () => {
        await service?.dispose();
    });

    it('the follower\'s reader (liteservers over ADNL) and the devnet\'s (method table) read the same head, p34 and past_elections', async () => {
        const { host, port, publicKey } = service.liteserver!;
        const pool = new LitePool([{ host, port, publicKey }], server => new LiteClientConnection(server));
        const local = createDevnetLiteMethods({ dataDir: service.dataDir, sink: { sendExternalMessage: async () => undefined } });
        try {
            const remote = new RoundChainReader(litePoolTransport(pool));
            const inProcess = new RoundChainReader(methodTableTransport(local.methods));
            const head = await remote.head();
            assert.ok(head.seqno >= 1);
            const [a, b] = [await remote.validatorSets(head.seqno), await inProcess.validatorSets(head.seqno)];
            assert.ok(a.current, 'p34 is set on the devnet');
            assert.deepEqual(a, b);
            const byTime = await remote.blockAtUtime(a.current.utimeSince);
            assert.ok(byTime.seqno >= 1);
            const electorOnChain = await remote.account(head.seqno, Buffer.alloc(32, 0x33));
            if (electorOnChain?.code) assert.deepEqual(await remote.pastElections(head.seqno), await inProcess.pastElections(head.seqno));
        } finally {
            pool.close();
            local.close();
        }
    });

    it('conflicting selectors are a 400', async () => {
        assertError(await rewards('?election_id=1&unixtime=2'), 400, 'mutually exclusive', 'election_id, unixtime');
        assertError(await rewards('?block=1&unixtime=2&election_id=3'), 400, 'mutually exclusive');
    });

    it('a block after the head is a 404; a time after it a 409', async () => {
        assertError(await rewards('?block=4000000000'), 404, 'does not exist yet');
        assertError(await rewards('?unixtime=4000000000'), 409, 'after the newest masterchain block');
    });

    it('the last finished round: a clear 4xx while the devnet has none', async (t) => {
        const response = await rewards('');
        if (response.status === 200) {
            assert.ok(response.body.validators.length > 0);
            return;
        }
        assert.ok([404, 409].includes(response.status), `${response.status}: ${response.text}`);
        assert.match(response.body.error, /no validation round has finished|not finished|no election record|config param 34 is empty/);
        t.diagnostic(response.body.error);
    });
});
