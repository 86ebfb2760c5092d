import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, internal, toNano, type MessageRelaxed } from '@ton/core';
import { sql } from 'kysely';
import type { RunningService } from '../../src/app.ts';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { jettonTransferBody, jettonWalletAddress } from '../../src/chain/devnet/contracts/jetton.ts';
import { commentPayload } from '../../src/chain/devnet/contracts/payload.ts';
import { METADATA_DOCUMENTS } from '../../src/chain/devnet/token-seed.ts';
import { formatBlockId } from '../../src/ton/block-id.ts';
import { request } from '../helpers/http.ts';
import { PLACEHOLDER, type RealBoc } from './boc-mutations.ts';
import type { FuzzContext } from './openapi-arbitraries.ts';
import { MAINNET_AVAILABLE, mainnetFile, readBlockBoc } from '../helpers/fixtures.ts';


const SAMPLE = 60;
const SENDERS = 1;

/**
 * Real values of a running devnet service's index for the fuzzer's valid requests, and real bags
 * of cells to mutate: signed v3r2/v4r2/v5r1 transfers (plain, with a jetton transfer body, with the
 * largest coin value, with a placeholder body where deep and wide cells are grafted), indexed
 * transactions, mainnet blocks and the mainnet config.
 */
export async function collectFuzzContext(service: RunningService & { base: string }): Promise<FuzzContext> {
    const db = service.store.db;
    const manifest = (await request(`${service.base}/devnet/manifest`)).body as { accounts: Array<{ name: string; address: string; kind: string; secret_key?: string; workchain_id?: number }> };
    const states = await db.selectFrom('account_states').select(['address']).orderBy('last_tx_lt', 'desc').limit(SAMPLE).execute();
    const transactions = await db.selectFrom('transactions').select(['hash', 'lt', 'utime', 'trace_id', 'in_msg_hash', 'account', 'boc']).orderBy(sql`random()`).limit(SAMPLE).execute();
    const blocks = await db.selectFrom('blocks').select(['workchain', 'shard', 'seqno', 'utime']).orderBy(sql`random()`).limit(SAMPLE).execute();
    const orders = await db.selectFrom('multisig_orders').select('address').limit(10).execute();
    const wallets = await db.selectFrom('wallets').select('public_key').limit(SAMPLE).execute();
    const jettonHolders = await db.selectFrom('jetton_operations').select('source').where('source', 'is not', null).limit(SAMPLE).execute();

    const rewards = await request(`${service.base}/rewards/round-rewards?shallow=1`);
    const electionIds = rewards.status === 200 && typeof rewards.body?.election_id === 'number' ? [rewards.body.election_id as number] : [];

    const addresses = [...new Set([...manifest.accounts.map(a => a.address), ...states.map(s => s.address), ...jettonHolders.map(j => j.source!)])];
    return {
        addresses,
        multisigOrders: orders.map(o => o.address),
        txHashes: transactions.map(t => t.hash),
        traceIds: [...new Set([...transactions.map(t => t.trace_id), ...transactions.flatMap(t => (t.in_msg_hash ? [t.in_msg_hash] : []))])],
        blockIds: blocks.map(b => formatBlockId({ workchain: Number(b.workchain), shard: b.shard, seqno: Number(b.seqno) })),
        lts: transactions.map(t => BigInt(t.lt)),
        utimes: blocks.map(b => Number(b.utime)),
        masterSeqnos: blocks.filter(b => Number(b.workchain) === -1).map(b => Number(b.seqno)),
        electionIds,
        publicKeys: [...new Set([...wallets.map(w => w.public_key), ...manifest.accounts.filter(a => a.secret_key).map(a => DevnetWallet.fromManifest(a).keys.publicKey.toString('hex'))])],
        metadataDocuments: Object.keys(METADATA_DOCUMENTS),
        ...await signedTransfers(service, manifest.accounts, [
            ...transactions.slice(0, 4).map(t => ({ label: `transaction of ${t.account.slice(0, 8)}…`, bytes: Buffer.from(t.boc) })),
            // real mainnet bags when the fixtures are beside the clone
            ...(MAINNET_AVAILABLE ? ['block-4', 'block-5', 'block-6'].map(name => ({ label: `mainnet ${name}.boc`, bytes: readBlockBoc(name) })) : []),
            ...(MAINNET_AVAILABLE ? [{ label: 'mainnet config params', bytes: Buffer.from(readFileSync(mainnetFile('config-params.boc.b64'), 'utf8').trim(), 'base64') }] : []),
        ]),
    };
}

/**
 * Transfers signed by the funded wallets, each of the first `SENDERS` wallets' going to the send
 * operation only: a valid one sent moves its wallet's seqno, which would turn the same wallet's
 * transfers stale for the emulation operations.
 */
async function signedTransfers(
    service: RunningService, accounts: Array<{ name: string; address: string; kind: string; secret_key?: string; workchain_id?: number }>, others: RealBoc[],
): Promise<{ bocs: RealBoc[]; sendBocs: RealBoc[] }> {
    const signers = accounts.filter(a => a.secret_key && /^wallet_v(3r2|4r2|5r1)$/.test(a.kind) && a.name !== 'faucet');
    const target = Address.parseRaw(accounts.find(a => a.name === 'bob-v4r2')?.address ?? signers[0].address);
    const dusd = accounts.find(a => a.name === 'DUSD');
    const validUntil = Math.floor(Date.now() / 1000) + 3600;
    const bocs: RealBoc[] = [...others];
    const sendBocs: RealBoc[] = [...others];
    let signed = 0;
    for (const account of signers) {
        const state = await service.store.db.selectFrom('account_states').select(['data', 'status', 'balance']).where('address', '=', account.address).executeTakeFirst();
        // Wallets that can pay, so valid messages get past the first transaction.
        if (state?.status !== 'active' || BigInt(state.balance) < toNano('100') || signed >= SENDERS + 6) continue;
        const out = signed++ < SENDERS ? sendBocs : bocs;
        const wallet = DevnetWallet.fromManifest(account);
        const seqno = state?.data ? DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(state.data)[0]) : 0;
        const sign = async (label: string, messages: MessageRelaxed[]) => out.push({ label: `${account.kind} ${label}`, bytes: (await wallet.transfer(seqno, validUntil, messages)).toBoc() });
        await sign('transfer', [internal({ to: target, value: toNano('1.5'), body: 'fuzz' })]);
        await sign('transfer of 2^120-1', [internal({ to: target, value: 2n ** 120n - 1n, bounce: true })]);
        await sign('with a placeholder body', [internal({ to: target, value: toNano('0.1'), body: beginCell().storeBuffer(PLACEHOLDER).endCell() })]);
        if (dusd) {
            const jettonWallet = jettonWalletAddress(wallet.address, Address.parseRaw(dusd.address));
            await sign('jetton transfer', [internal({
                to: jettonWallet, value: toNano('0.1'), bounce: true,
                body: jettonTransferBody({ queryId: 1n, amount: 1_000n, destination: target, responseDestination: wallet.address, forwardTonAmount: 1n, forwardPayload: commentPayload('fuzz') }),
            })]);
            await sign('jetton transfer of 2^120-1', [internal({
                to: jettonWallet, value: toNano('0.1'), bounce: true,
                body: jettonTransferBody({ queryId: 2n ** 64n - 1n, amount: 2n ** 120n - 1n, destination: target, forwardTonAmount: 2n ** 120n - 1n }),
            })]);
        }
    }
    return { bocs, sendBocs };
}
