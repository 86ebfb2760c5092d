import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, Cell, internal, toNano } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { jettonTransferBody, jettonWalletAddress } from '../../src/chain/devnet/contracts/jetton.ts';
import { accountState } from '../../src/store/read/chain-state.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from '../api/api-call.ts';
import { collectFuzzContext } from './fuzz-context.ts';
import { formatReport, memoryWithinLimits, runFuzz } from './fuzz-runner.ts';
import type { FuzzContext } from './openapi-arbitraries.ts';

/**
 * The API under generated requests (test/fuzz): a fixed seed and a few hundred cases here; `npm run
 * fuzz -- --cases N` runs more (docs/BENCHMARKS.md). Below, the cases the fuzzer found, kept as examples.
 */

const CASES = 800;
const SEED = 20261124;

let service: DevnetService;
let ctx: FuzzContext;
let manifest: { accounts: ManifestAccount[] };

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
    ctx = await collectFuzzContext(service);
});

after(async () => {
    await service?.dispose();
});

describe('the API under generated requests', () => {
    it(`answers ${CASES} fixed-seed requests of every operation without a 5xx, a hang or an answer outside the document, and stays up`, async () => {
        const report = await runFuzz({ base: service.base, ctx, cases: CASES, seed: SEED });
        const text = formatReport(report);
        assert.equal(report.failures.length, 0, text);
        assert.ok(report.aliveAfter, text);
        assert.ok(memoryWithinLimits(report), text);
        // Every operation of the document was exercised, BOC-taking ones with mutated bags.
        for (const [operationId, stats] of Object.entries(report.byOperation)) assert.ok(stats.cases > 0, `${operationId} got no case\n${text}`);
    });
});

describe('cases the fuzzer found', () => {
    async function signedBy(name: string, messages: Parameters<DevnetWallet['transfer']>[2]): Promise<string> {
        const entry = accountNamed(manifest, name);
        const wallet = DevnetWallet.fromManifest(entry);
        const state = await accountState(service.store.db, entry.address);
        const seqno = state?.data ? DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(state.data)[0]) : 0;
        return (await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 600, messages)).toBoc().toString('base64');
    }

    it('refuses a wallet message asking to send more nanograms than any account holds (it was a 200 whose amounts broke int64)', async () => {
        const bob = Address.parseRaw(accountNamed(manifest, 'bob-v4r2').address);
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const boc = await signedBy('alice-v3r2', [internal({ to: bob, value: 2n ** 120n - 1n, bounce: true })]);
        assertError(await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc } }), 400, 'more than any account can hold');
        assertError(await call('emulateMessageToAccountEvent', `${service.base}/accounts/${alice}/events/emulate?ignore_signature_check=true`, { method: 'POST', json: { boc } }), 400, 'more than any account can hold');

        // Two messages of 2^62 each fit one by one, not together.
        const halves = await signedBy('alice-v3r2', [internal({ to: bob, value: 2n ** 62n, bounce: true }), internal({ to: bob, value: 2n ** 62n, bounce: true })]);
        assertError(await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc: halves } }), 400, '9223372036854775808 nanograms');

        // 2^63 - 1 itself is refused once the fees are added (it was a 409 whose `details.required` broke int64).
        const withFees = await signedBy('alice-v3r2', [internal({ to: bob, value: 2n ** 63n - 1n, bounce: true })]);
        assertError(await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc: withFees } }), 400, 'pay the fees, more than any account can hold');

        // Below that, it is what alice lacks: a 409 with the amounts.
        const short = await signedBy('alice-v3r2', [internal({ to: bob, value: 2n ** 62n, bounce: true })]);
        const response = await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc: short } });
        assertError(response, 409, 'the wallet holds');
        assert.equal(response.body.error_code, 50000);
    });

    it('refuses balances in params that would leave an account with more than 2^63 - 1 nanograms (it was a 200 whose end_balance broke int64)', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signedBy('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('1'), bounce: true })]);
        const body = (balance: bigint) => `{"boc":"${boc}","params":[{"address":"${bob}","balance":${balance}}]}`;
        assertError(await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: body(2n ** 63n - 4n) }), 400, `account ${bob} would end with`);
        const fits = await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: body(2n ** 62n) });
        assert.equal(fits.status, 200, fits.text);
    });

    it('caps risk.total_equivalent at 2^63 - 1 for a jetton amount whose value exceeds it (it was a 200 outside the document)', async () => {
        const alice = Address.parseRaw(accountNamed(manifest, 'alice-v3r2').address);
        const dusd = Address.parseRaw(accountNamed(manifest, 'DUSD').address);
        const boc = await signedBy('alice-v3r2', [internal({
            to: jettonWalletAddress(alice, dusd), value: toNano('0.1'), bounce: true,
            body: jettonTransferBody({ queryId: 1n, amount: 2n ** 120n - 1n, destination: alice, forwardTonAmount: 1n }),
        })]);
        const response = await call('emulateMessageToWallet', `${service.base}/wallet/emulate?currency=usd`, { method: 'POST', json: { boc } });
        assert.equal(response.status, 200, response.text);
        assert.match(response.text, /"total_equivalent":9223372036854775807[,}]/);
        assert.match(response.text, new RegExp(`"quantity":"${2n ** 120n - 1n}"`));
    });
});
