import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readBlockBoc as blockRecordFromBoc } from '../../../src/chain/block-reading.ts';
import { indexBlock } from '../../../src/indexer/index-block.ts';
import { accountInterfaces } from '../../../src/store/read/accounts.ts';
import { blockListText, blockTransactions, storedTransactions } from '../../../src/store/read/transactions.ts';
import { readListHoles, TEXT_VERSION } from '../../../src/present/stored/transaction-template.ts';
import type { Store } from '../../../src/store/store.ts';
import { TransactionTexts } from '../../../src/api/answers/transaction-texts.ts';
import { toJson } from '../../../src/json/json.ts';
import { ByteText } from '../../../src/json/byte-text.ts';
import type { StoredTransaction } from '../../../src/store/read/transactions.ts';
import { mainnetSkip, readBlockBoc, readSummary } from '../../helpers/fixtures.ts';
import { storeBackends } from '../../helpers/stores.ts';

/** `appendList` alone, as its JSON array. */
async function listText(texts: TransactionTexts, rows: StoredTransaction[]): Promise<{ text: Buffer }> {
    const out = new ByteText();
    await texts.appendList(out, rows);
    return { text: out.toBuffer() };
}

/** The interfaces the index knows, with `override` put over them; `asked`: every list of accounts asked for. */
function overriddenInterfaces(store: Store) {
    const known = { override: new Map<string, string[]>(), asked: [] as string[][] };
    const interfacesOf = async (accounts: string[]) => {
        known.asked.push(accounts);
        const interfaces = await accountInterfaces(store.db, accounts);
        for (const [account, names] of known.override) interfaces.set(account, names);
        return interfaces;
    };
    return { known, interfacesOf };
}

/** A mainnet masterchain block's transactions, through the texts kept by hash. */
for (const backend of storeBackends()) {
    describe(`transaction texts (${backend.name})`, { skip: mainnetSkip }, () => {
        let store: Store & { dispose(): Promise<void> };
        const id = { workchain: -1, shard: '8000000000000000', seqno: 17734191 };

        before(async () => {
            store = await backend.open();
            await indexBlock(store, await blockRecordFromBoc(readBlockBoc('block-5')));
        });
        after(() => store.dispose());

        test('reads from the index only the transactions whose texts it has not kept or that no longer hold', async () => {
            const hashes = (await blockTransactions(store.db, id))!.map(row => row.hash);
            assert.deepEqual(hashes, readSummary('block-5').transactions.map(t => t.hash));
            const loaded: string[][] = [];
            const load = (wanted: string[]) => {
                loaded.push(wanted);
                return storedTransactions(store.db, wanted);
            };
            let changed: string | null = null;
            let generation = 1n;
            const asked: string[][] = [];
            const texts = new TransactionTexts(1 << 20, async accounts => {
                asked.push(accounts);
                const interfaces = await accountInterfaces(store.db, accounts);
                if (changed) interfaces.set(changed, ['wallet_v4r2']);
                return interfaces;
            }, async () => generation);

            const texts_ = (items: Array<{ text: string | Buffer }>) => items.map(item => item.text.toString());
            const first = texts_(await texts.present(hashes, load));
            assert.deepEqual(loaded, [hashes]);
            assert.deepEqual(first.map(text => JSON.parse(text).hash), hashes);

            assert.deepEqual(texts_(await texts.present([hashes[2], hashes[0]], load)), [first[2], first[0]]);
            assert.equal(loaded.length, 1, 'kept texts are not read again');
            assert.equal(asked.length, 1, 'nor the interfaces of their accounts while the index has not moved');

            // The index now says one account is a wallet: the transactions mentioning it are made again.
            const parsed = first.map(text => JSON.parse(text) as { hash: string; account: { address: string } });
            changed = parsed[0].account.address;
            assert.deepEqual(texts_(await texts.present(hashes, load)), first, 'the index has not moved: the kept texts hold');
            generation++;
            const again = JSON.parse(toJson(await texts.present(hashes, load))) as Array<{ hash: string; account: { address: string; is_wallet: boolean } }>;
            assert.equal(loaded.length, 2);
            const mentioning = parsed.filter((_, i) => first[i].includes(changed!)).map(t => t.hash);
            assert.deepEqual(loaded[1], mentioning);
            assert.ok(mentioning.length < hashes.length);
            for (const t of again) if (t.account.address === changed) assert.equal(t.account.is_wallet, true);
        });

        test('texts stored at ingest are filled with what the index knows when read, and say what the BOCs say', async () => {
            const rows = (await blockTransactions(store.db, id))!;
            const hashes = rows.map(row => row.hash);
            assert.deepEqual(await storedTransactions(store.db, hashes), rows, 'by hash as by block');
            assert.ok(rows.every(row => row.text && row.text.text.length > 0), 'every transaction of the block was stored with its text');
            let override: Map<string, string[]> = new Map();
            let generation = 1n;
            const interfacesOf = async (accounts: string[]) => {
                const interfaces = await accountInterfaces(store.db, accounts);
                for (const [account, names] of override) interfaces.set(account, names);
                return interfaces;
            };
            const fromTexts = new TransactionTexts(1 << 20, interfacesOf, async () => generation);
            const fromBocs = new TransactionTexts(1 << 20, interfacesOf, async () => generation);
            const withoutTexts = async (wanted: string[]) => (await storedTransactions(store.db, wanted)).map(row => ({ ...row, text: undefined }));
            const both = async () => [
                toJson(await fromTexts.present(hashes, wanted => storedTransactions(store.db, wanted))),
                toJson(await fromBocs.present(hashes, withoutTexts)),
            ];
            const [first, firstExpected] = await both();
            assert.equal(first, firstExpected);

            // The index learns that the block's accounts are wallets of two kinds: the stored texts follow.
            const accounts = [...new Set((JSON.parse(first) as Array<{ account: { address: string } }>).map(t => t.account.address))];
            override = new Map(accounts.map((a, i) => [a, [i % 2 ? 'wallet_v3r2' : 'wallet_v4r2']]));
            generation++;
            const [second, secondExpected] = await both();
            assert.equal(second, secondExpected);
            assert.notEqual(second, first);
            assert.ok((JSON.parse(second) as Array<{ account: { is_wallet: boolean } }>).every(t => t.account.is_wallet));

            // The answer is the stored text (tampered with here), not a presentation of the BOC…
            const tampered = new TransactionTexts(1 << 20, interfacesOf, async () => generation);
            const marked = (await tampered.present(hashes, async wanted => (await storedTransactions(store.db, wanted)).map(row => ({
                ...row, text: { ...row.text!, text: Buffer.from(row.text!.text.toString().replace('"success":', '"stored":true,"success":')) },
            })))).map(item => JSON.parse(item.text.toString()) as { stored?: boolean });
            assert.ok(marked.every(t => t.stored));
            // …unless it was made by another version of the presentation.
            const older = new TransactionTexts(1 << 20, interfacesOf, async () => generation);
            const fromOlder = toJson(await older.present(hashes, async wanted => (await storedTransactions(store.db, wanted)).map(row => ({
                ...row, text: { text: Buffer.from(row.text!.text.toString().replace('"success":', '"stored":true,"success":')), holes: JSON.stringify([0, ...(JSON.parse(row.text!.holes) as unknown[]).slice(1)]) },
            }))));
            assert.equal(fromOlder, secondExpected);
        });

        test("a block's list in one piece says what the texts kept by hash say, byte for byte", async () => {
            const rows = (await blockTransactions(store.db, id))!;
            const hashes = rows.map(row => row.hash);
            const { known, interfacesOf } = overriddenInterfaces(store);
            const list = new TransactionTexts(1 << 20, interfacesOf, async () => 1n);
            const perHash = () => new TransactionTexts(1 << 20, interfacesOf, async () => 1n);
            const expected = async () => toJson(await perHash().present(hashes, wanted => storedTransactions(store.db, wanted)));

            const whole = await listText(list, rows);
            assert.equal(known.asked.length, 1, 'one interfaces query for the whole list');
            assert.deepEqual(known.asked[0], [...known.asked[0]].sort());
            assert.ok(Buffer.isBuffer(whole.text));
            assert.equal(whole.text.toString(), await expected());

            // What the index knows when the list is read is what it says: no text is kept from the last list.
            const accounts = [...new Set((JSON.parse(whole.text.toString()) as Array<{ account: { address: string } }>).map(t => t.account.address))];
            known.override = new Map(accounts.map(a => [a, ['wallet_v4r2']]));
            const after = (await listText(list, rows)).text.toString();
            assert.notEqual(after, whole.text.toString());
            assert.equal(after, await expected());

            // Rows without a text, or with one of another version, are presented from their BOCs in place.
            const mixed = rows.map((row, i) => i % 3 === 0 ? { ...row, text: undefined } : i % 3 === 1 ? { ...row, text: { ...row.text!, version: 0 } } : row);
            assert.equal((await listText(list, mixed)).text.toString(), after);
            assert.equal((await listText(list, [])).text.toString(), '[]');
            const enclosed = new ByteText().string('{"transactions":');
            await list.appendList(enclosed, rows);
            assert.deepEqual(JSON.parse(enclosed.string('}').toBuffer().toString()), { transactions: JSON.parse(after) });
        });

        test("a block's list stored in one text at ingest says what its transactions say, byte for byte", async () => {
            const rows = (await blockTransactions(store.db, id))!;
            const stored = await blockListText(store, id);
            assert.ok(stored, 'the block was stored with its list text');
            const template = readListHoles(stored.holes);
            assert.equal(template.version, TEXT_VERSION);
            assert.ok(template.holes.every(hole => hole[0] !== 'r'), 'raw is written in, not a hole');
            const { known, interfacesOf } = overriddenInterfaces(store);
            const texts = new TransactionTexts(1 << 20, interfacesOf, async () => 1n);
            const fromText = async (template = stored) => {
                const out = new ByteText().string('x');
                return { appended: await texts.appendListText(out, template), text: out.toBuffer().toString().slice(1) };
            };
            const first = await fromText();
            assert.equal(first.appended, true);
            assert.equal(known.asked.length, 1, 'one interfaces query');
            assert.deepEqual(known.asked[0], [...new Set(known.asked[0])].sort());
            assert.equal(first.text, (await listText(texts, rows)).text.toString());
            assert.equal((JSON.parse(first.text) as unknown[]).length, rows.length);

            // The holes follow what the index knows when the list is read.
            const accounts = [...new Set((JSON.parse(first.text) as Array<{ account: { address: string } }>).map(t => t.account.address))];
            known.override = new Map(accounts.map((a, i) => [a, [i % 2 ? 'wallet_v3r2' : 'wallet_v4r2']]));
            const second = await fromText();
            assert.notEqual(second.text, first.text);
            assert.equal(second.text, (await listText(texts, rows)).text.toString());

            // A text of another version, or whose marks do not match its holes, is not used and leaves nothing behind.
            const [version, accountList, ...holes] = JSON.parse(stored.holes) as [number, string[], ...unknown[]];
            assert.deepEqual(await fromText({ ...stored, holes: JSON.stringify([version + 1, accountList, ...holes]) }), { appended: false, text: '' });
            assert.deepEqual(await fromText({ ...stored, holes: JSON.stringify([version, accountList, ...holes.slice(1)]) }), { appended: false, text: '' });
            // Nor is one whose text was gone when it was read (a block being written as it was asked for).
            assert.deepEqual(await fromText({ ...stored, text: Promise.resolve(undefined) }), { appended: false, text: '' });
        });

        test('a block read without texts is stored without a list text', async () => {
            const other = await backend.open();
            try {
                const record = await blockRecordFromBoc(readBlockBoc('block-5'), undefined, undefined, false);
                assert.equal(record.listText, undefined);
                await indexBlock(other, record);
                assert.equal(await blockListText(other, id), undefined);
                assert.equal((await blockTransactions(other.db, id))!.length, readSummary('block-5').transactions.length);
            } finally {
                await other.dispose();
            }
        });

        test('an unknown hash is an error, not a shorter list', async () => {
            await assert.rejects(storedTransactions(store.db, ['00'.repeat(32)]), /is not in the index/);
        });
    });
}
