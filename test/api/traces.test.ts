import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Cell, loadTransaction } from '@ton/core';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { SEED_STEPS } from '../../src/chain/devnet/seed.ts';
import { STAKING_WALLETS } from '../../src/chain/devnet/elections.ts';
import { STAKING_STEPS } from '../../src/chain/devnet/staking-seed.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';
import { traceText } from '../../src/api/answers/trace-texts.ts';
import { extraCurrencyTable } from '../../src/app.ts';
import { TransactionTexts } from '../../src/api/answers/transaction-texts.ts';
import { toJson } from '../../src/json/json.ts';
import { accountInterfaces } from '../../src/store/read/accounts.ts';
import { storedTransactions, traceTransactionTexts } from '../../src/store/read/transactions.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface TraceNode { transaction: Json; interfaces: string[]; children?: TraceNode[]; emulated?: boolean }

const GRAM = 1_000_000_000;
const WALLET_EXTERNAL: Record<string, string> = {
    wallet_v3r2: 'wallet_signed_v3',
    wallet_v4r2: 'wallet_signed_v4',
    wallet_v5r1: 'wallet_signed_external_v5_r1',
};

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };
/** Every seeded trace, by trace id (root transaction hash). */
const traces = new Map<string, { body: TraceNode; text: string; complete: string | null; pending: string | null }>();

function nodes(trace: TraceNode): Array<{ node: TraceNode; parent?: TraceNode; depth: number }> {
    const out: Array<{ node: TraceNode; parent?: TraceNode; depth: number }> = [];
    const visit = (node: TraceNode, parent: TraceNode | undefined, depth: number) => {
        out.push({ node, parent, depth });
        for (const child of node.children ?? []) visit(child, node, depth + 1);
    };
    visit(trace, undefined, 0);
    return out;
}

/**
 * The validator economy acts on every block (tick-tock, validators' stakes): its accounts and the
 * seed steps that set it up are left to test/chain/devnet-elections.test.ts; these tests read the
 * traces of the rest of the seed.
 */
const ECONOMY_KINDS = new Set(['elector', 'config', 'nominator_pool', 'single_nominator_pool']);
const ECONOMY_WALLETS = new Set(STAKING_WALLETS.map(w => w.name));
const inEconomy = (account: ManifestAccount) => ECONOMY_KINDS.has(account.kind) || ECONOMY_WALLETS.has(account.name);
const SEED_TRACES = SEED_STEPS.length - STAKING_STEPS.length;

function nameOf(address: string): string | undefined {
    return manifest.accounts.find(a => a.address === address)?.name;
}

function tracesRootedAt(name: string): TraceNode[] {
    const address = accountNamed(manifest, name).address;
    return [...traces.values()].map(t => t.body).filter(t => t.transaction.account.address === address)
        .sort((a, b) => (BigInt(a.transaction.lt) < BigInt(b.transaction.lt) ? -1 : 1));
}

/** The trace whose tree contains a message with this text comment. */
function traceWithComment(text: string): { trace: TraceNode; node: TraceNode; parent?: TraceNode } {
    for (const { body } of traces.values()) {
        for (const { node, parent } of nodes(body)) {
            if (node.transaction.in_msg?.decoded_op_name === 'text_comment' && node.transaction.in_msg.decoded_body?.text === text) return { trace: body, node, parent };
        }
    }
    throw new assert.AssertionError({ message: `no seeded trace carries the comment '${text}'` });
}

async function getTrace(id: string) {
    return call('getTrace', `${service.base}/traces/${encodeURIComponent(id)}`);
}

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
    for (const account of manifest.accounts.filter(a => !inEconomy(a))) {
        const list = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${account.address}/transactions?limit=100`);
        assert.equal(list.status, 200);
        for (const tx of list.body.transactions) {
            const response = await getTrace(tx.hash);
            assert.equal(response.status, 200, response.text);
            const id = response.body.transaction.hash;
            if (!traces.has(id)) {
                traces.set(id, { body: response.body, text: response.text, complete: response.headers.get('x-trace-complete'), pending: response.headers.get('x-trace-pending') });
            }
        }
    }
});

after(async () => {
    await service?.dispose();
});

describe('GET /v2/traces/{trace_id} over the seeded devnet', () => {
    it('finds one complete trace per seed step, each rooted at an external message', () => {
        assert.equal(traces.size, SEED_TRACES);
        for (const [id, { body, complete, pending }] of traces) {
            assert.equal(complete, 'true', `trace ${id} should be complete`);
            assert.equal(pending, '0');
            const root = body.transaction;
            assert.equal(root.hash, id, 'the trace id is the hash of the root transaction');
            assert.equal(root.in_msg?.msg_type, 'ext_in_msg');
            assert.equal(root.in_msg.source, undefined, 'an external message has no source');
            assert.equal(root.in_msg.destination.address, root.account.address);
            assert.ok(nameOf(root.account.address), 'every seeded trace starts at a manifest wallet');
            assert.ok((body.children ?? []).length >= 1, 'every seeded transfer produced at least one child');
        }
    });

    it('hangs every child under the transaction that sent its in_msg, ordered by in_msg created_lt', () => {
        for (const { body } of traces.values()) {
            for (const { node } of nodes(body)) {
                const tx = node.transaction;
                assert.equal(node.emulated, false);
                const children = node.children ?? [];
                const sentInternal = tx.out_msgs.filter((m: Json) => m.msg_type === 'int_msg');
                // A complete trace: every internal message sent has its receiving transaction as a child.
                assert.equal(children.length, sentInternal.length, `children of ${tx.hash}`);
                for (const child of children) {
                    const inMsg = child.transaction.in_msg;
                    assert.equal(inMsg.msg_type, 'int_msg');
                    const sent = tx.out_msgs.find((m: Json) => m.hash === inMsg.hash);
                    assert.ok(sent, `child ${child.transaction.hash} received a message its parent did not send`);
                    assert.deepEqual(inMsg, sent, 'the message is presented the same on both ends');
                    assert.equal(inMsg.source.address, tx.account.address);
                    assert.equal(inMsg.destination.address, child.transaction.account.address);
                    assert.ok(BigInt(child.transaction.lt) > BigInt(tx.lt), 'a child executes after its parent');
                    assert.ok(BigInt(inMsg.created_lt) > BigInt(tx.lt) - 1n, 'the message was created by the parent transaction');
                }
                for (let i = 1; i < children.length; i++) {
                    assert.ok(BigInt(children[i - 1].transaction.in_msg.created_lt) < BigInt(children[i].transaction.in_msg.created_lt), 'children ordered by in_msg created_lt');
                }
                for (let i = 1; i < tx.out_msgs.length; i++) {
                    assert.ok(BigInt(tx.out_msgs[i - 1].created_lt) < BigInt(tx.out_msgs[i].created_lt), 'out_msgs ordered by created_lt');
                }
            }
        }
    });

    it('serializes transactions faithfully: raw is a BOC of the transaction, hashes and ids match', () => {
        for (const { body } of traces.values()) {
            for (const { node } of nodes(body)) {
                const tx = node.transaction;
                assert.match(tx.raw, /^([0-9a-f]{2})+$/);
                const cells = Cell.fromBoc(Buffer.from(tx.raw, 'hex'));
                assert.equal(cells.length, 1);
                assert.equal(cells[0].hash().toString('hex'), tx.hash, 'raw BOC cell hash equals hash');
                const parsed = loadTransaction(cells[0].beginParse());
                assert.equal(parsed.lt.toString(), String(tx.lt));
                assert.equal(parsed.now, tx.utime);
                assert.equal(`${tx.account.address.split(':')[0]}:${parsed.address.toString(16).padStart(64, '0')}`, tx.account.address);
                assert.equal(parsed.inMessage ? 1 : 0, tx.in_msg ? 1 : 0);
                // The in_msg hash is the hash of the message cell inside the raw transaction.
                const inCell = cells[0].refs[0].beginParse();
                assert.ok(inCell.loadBit());
                assert.equal(inCell.loadRef().hash().toString('hex'), tx.in_msg.hash);
                assert.equal(tx.out_msgs.length, parsed.outMessagesCount);
                assert.match(tx.block, new RegExp(`^\\(${tx.account.address.split(":")[0]},8000000000000000,[1-9][0-9]*\\)$`));
                for (const message of [tx.in_msg, ...tx.out_msgs]) {
                    if (message.op_code !== undefined) assert.match(message.op_code, /^0x[0-9a-f]{8}$/);
                    if (message.raw_body !== undefined) assert.match(message.raw_body, /^([0-9a-f]{2})+$/);
                }
            }
        }
    });

    it('returns the same trace for its id, any transaction hash and any inbound message hash, in every spelling', async () => {
        const bounce = tracesRootedAt('bob-v4r2').find(t => t.children?.[0]?.children?.length);
        assert.ok(bounce, 'the bounce trace has a grandchild');
        const reference = traces.get(bounce.transaction.hash)!.text;
        const child = bounce.children![0];
        const grandchild = child.children![0];
        const hashes = [
            bounce.transaction.hash,
            child.transaction.hash,
            grandchild.transaction.hash,
            bounce.transaction.in_msg.hash,
            child.transaction.in_msg.hash,
            grandchild.transaction.in_msg.hash,
        ];
        assert.equal(new Set(hashes).size, hashes.length);
        for (const hex of hashes) {
            const bytes = Buffer.from(hex, 'hex');
            const spellings = [
                hex,
                `0x${hex}`,
                hex.toUpperCase(),
                `0x${hex.toUpperCase()}`,
                bytes.toString('base64'),
                bytes.toString('base64').replace(/=$/, ''),
                bytes.toString('base64url'),
                `${bytes.toString('base64url')}=`,
            ];
            for (const spelling of spellings) {
                const response = await getTrace(spelling);
                assert.equal(response.status, 200, `${spelling}: ${response.text}`);
                assert.equal(response.text, reference, `lookup by ${spelling} (${hex})`);
                assert.equal(response.headers.get('x-trace-complete'), 'true');
            }
        }
    });

    it('lookups of different traces give different trees', async () => {
        const ids = [...traces.keys()];
        const texts = new Set<string>();
        for (const id of ids) texts.add((await getTrace(id)).text);
        assert.equal(texts.size, ids.length);
    });

    it('decodes wallet externals by wallet version and carries their seqno', () => {
        for (const account of manifest.accounts.filter(a => a.kind.startsWith('wallet_') && !inEconomy(a))) {
            const roots = tracesRootedAt(account.name);
            assert.ok(roots.length >= 1, `${account.name} started a trace`);
            roots.forEach((root, i) => {
                const inMsg = root.transaction.in_msg;
                assert.equal(inMsg.decoded_op_name, WALLET_EXTERNAL[account.kind], `${account.name} (${account.kind})`);
                assert.equal(inMsg.decoded_body.seqno, i, `${account.name}'s transfer #${i} is signed with seqno ${i}`);
                // The first transfer deploys the wallet: it carries the StateInit.
                if (i === 0) {
                    assert.ok(inMsg.init, 'the deploying external carries init');
                    assert.ok(inMsg.init.interfaces.includes(account.kind));
                    assert.equal(root.transaction.orig_status, 'uninit');
                    assert.equal(root.transaction.end_status, 'active');
                } else {
                    assert.equal(inMsg.init, undefined);
                }
                assert.equal(root.transaction.success, true);
            });
        }
    });

    it('reports the interfaces of wallet accounts', () => {
        let checked = 0;
        for (const { body } of traces.values()) {
            for (const { node } of nodes(body)) {
                const name = nameOf(node.transaction.account.address);
                if (!name) {
                    // Seeded jetton wallets and NFT items are found by probing; accounts without code have none.
                    const expected = node.transaction.end_status === 'active' ? [['jetton_wallet'], ['nft_item']] : [[]];
                    assert.ok(expected.some(e => JSON.stringify(e) === JSON.stringify(node.interfaces)), `unexpected interfaces ${node.interfaces}`);
                    assert.equal(node.transaction.account.is_wallet, false);
                    continue;
                }
                const kind = accountNamed(manifest, name).kind;
                assert.ok(node.interfaces.includes(kind), `${name} should have interface ${kind}, has ${node.interfaces}`);
                assert.equal(node.transaction.account.is_wallet, kind.startsWith('wallet_'));
                checked++;
            }
        }
        assert.ok(checked >= SEED_TRACES);
        assert.ok(tracesRootedAt('bob-v4r2')[0].interfaces.includes('wallet_v4r2'));
        assert.ok(tracesRootedAt('alice-v3r2')[0].interfaces.includes('wallet_v3r2'));
        assert.ok(tracesRootedAt('bob-v5r1')[0].interfaces.includes('wallet_v5r1'));
    });

    it('decodes text comments', () => {
        const cases: Array<[string, string, string]> = [
            ['Welcome to the devnet', 'faucet', 'alice-v3r2'],
            ['first transfer from a v3r2 wallet', 'alice-v3r2', 'bob-v4r2'],
            ['moving coins to my v5r1 wallet', 'bob-v4r2', 'bob-v5r1'],
            ['split 2/3', 'bob-v5r1', 'bob-v4r2'],
            ['devnet gems for bob', 'alice-v3r2', 'bob-v5r1'],
        ];
        for (const [text, from, to] of cases) {
            const { node, parent } = traceWithComment(text);
            const inMsg = node.transaction.in_msg;
            assert.equal(inMsg.op_code, '0x00000000');
            assert.deepEqual(inMsg.decoded_body, { text });
            assert.equal(nameOf(inMsg.source.address), from);
            assert.equal(nameOf(inMsg.destination.address), to);
            assert.equal(parent?.transaction.account.address, inMsg.source.address);
        }
    });

    it('decodes the encrypted comment', () => {
        const matches = [...traces.values()].flatMap(({ body }) => nodes(body))
            .filter(({ node }) => node.transaction.in_msg?.decoded_op_name === 'encrypted_text_comment');
        assert.equal(matches.length, 1);
        const inMsg = matches[0].node.transaction.in_msg;
        assert.equal(inMsg.op_code, '0x2167da4b');
        assert.equal(nameOf(inMsg.source.address), 'alice-v3r2');
        assert.equal(nameOf(inMsg.destination.address), 'bob-v4r2');
        assert.equal(inMsg.value, 50_000_000);
        assert.match(inMsg.decoded_body.cipher_text, /^[0-9a-f]{128}$/, '64 bytes of cipher text as hex');
        assert.ok(inMsg.raw_body.includes(inMsg.decoded_body.cipher_text), 'the cipher text is the body after the op code');
    });

    it('shows the multi-message v5r1 transfer as three children', () => {
        const root = traceWithComment('split 1/3').trace;
        assert.equal(nameOf(root.transaction.account.address), 'bob-v5r1');
        assert.equal(root.transaction.in_msg.decoded_op_name, 'wallet_signed_external_v5_r1');
        assert.equal(root.transaction.out_msgs.length, 3);
        assert.equal(root.children?.length, 3);
        assert.deepEqual(root.children!.map(c => c.transaction.in_msg.decoded_body.text), ['split 1/3', 'split 2/3', 'split 3/3']);
        assert.deepEqual(root.children!.map(c => nameOf(c.transaction.account.address)), ['alice-v3r2', 'bob-v4r2', 'faucet']);
        assert.deepEqual(root.children!.map(c => c.transaction.in_msg.value), [100_000_000, 200_000_000, 300_000_000]);
        for (const child of root.children!) {
            assert.equal(child.transaction.success, true);
            assert.equal(child.transaction.in_msg.bounce, true);
            assert.equal(child.children, undefined, 'a wallet receiving a comment sends nothing');
        }
        assert.equal(root.transaction.action_phase.total_actions, 3);
    });

    it('shows the failed transfer to a non-existent address and its bounce back as a grandchild', () => {
        const { trace, node: failed, parent } = traceWithComment('this one bounces: nobody lives here');
        const sender = accountNamed(manifest, 'bob-v4r2').address;
        assert.equal(trace.transaction.account.address, sender);
        assert.equal(parent, trace, 'the transfer is a direct child of the wallet external');
        assert.equal(trace.transaction.in_msg.decoded_op_name, 'wallet_signed_v4');

        const tx = failed.transaction;
        assert.equal(nameOf(tx.account.address), undefined, 'the destination is not a devnet account');
        assert.equal(tx.in_msg.bounce, true);
        assert.equal(tx.in_msg.bounced, false);
        assert.equal(tx.in_msg.value, GRAM);
        assert.equal(tx.success, false);
        assert.equal(tx.aborted, true);
        assert.deepEqual(tx.compute_phase, { skipped: true, skip_reason: 'cskip_no_state' });
        // The sandbox's executor records an account it has no state for as uninit before the transaction.
        assert.ok(['nonexist', 'uninit'].includes(tx.orig_status), tx.orig_status);
        assert.equal(tx.end_status, 'nonexist', 'bouncing everything back leaves no account behind');
        assert.equal(tx.bounce_phase, 'TrPhaseBounceOk');
        assert.equal(tx.out_msgs.length, 1);

        assert.equal(failed.children?.length, 1);
        const bounced = failed.children![0].transaction;
        assert.equal(bounced.account.address, sender, 'the bounce returns to the sender');
        assert.equal(bounced.in_msg.bounced, true);
        assert.equal(bounced.in_msg.bounce, false);
        assert.equal(bounced.in_msg.source.address, tx.account.address);
        assert.ok(bounced.in_msg.value > 0 && bounced.in_msg.value < GRAM, 'the bounce returns the value minus fees');
        assert.equal(bounced.success, true);
        assert.equal(failed.children![0].children, undefined);
    });

    it('answers an unknown id with 404 and an error body', async () => {
        for (const id of ['ab'.repeat(32), Buffer.alloc(32, 7).toString('base64url')]) {
            const response = await getTrace(id);
            assertError(response, 404);
        }
    });

    it('answers malformed ids with 400 naming the value', async () => {
        const hash = [...traces.keys()][0];
        for (const id of ['zzz', hash.slice(0, 63), `${hash}0`, `0x${hash.slice(2)}`, `${hash.slice(0, 63)}g`, Buffer.alloc(31).toString('base64url'), '0x']) {
            const response = await getTrace(id);
            assertError(response, 400, `'${id}'`);
        }
    });

    it('puts answers together from the stored transaction texts, as they are presented from the BOCs', async () => {
        const db = service.store.db;
        const currencies = extraCurrencyTable(service.config);
        let fromTexts = 0;
        for (const [id, { text }] of traces) {
            // A trace with a transaction that has no stored text (extra currencies: previews are the service's) is decoded as before.
            if (await traceTransactionTexts(db, id)) fromTexts++;
            assert.equal(text, (await traceText(db, id, currencies, false)).bytes.toString(), `trace ${id}`);
            assert.equal(text, (await traceText(db, id, currencies)).bytes.toString(), `trace ${id}`);
        }
        assert.ok(fromTexts >= traces.size - 2, `${fromTexts} of ${traces.size} traces have every text stored`);
    });

    it("puts accounts' pages together from the stored texts, as they are presented from the BOCs", async () => {
        const db = service.store.db;
        const interfacesOf = (accounts: string[]) => accountInterfaces(db, accounts);
        const generation = () => service.store.generation();
        let compared = 0;
        for (const account of manifest.accounts.filter(a => !inEconomy(a)).slice(0, 12)) {
            const list = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${account.address}/transactions?limit=100`);
            const hashes = (list.body.transactions as Array<{ hash: string }>).map(t => t.hash);
            const fromBocs = new TransactionTexts(1 << 20, interfacesOf, generation, extraCurrencyTable(service.config));
            const withoutTexts = async (wanted: string[]) => (await storedTransactions(db, wanted)).map(row => ({ ...row, text: undefined }));
            assert.equal(list.text, toJson({ transactions: await fromBocs.present(hashes, withoutTexts) }));
            compared += hashes.length;
        }
        assert.ok(compared > 20, `${compared} transactions compared`);
    });
});
