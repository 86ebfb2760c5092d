import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Address, Cell, beginCell, external, internal, loadMessage, storeMessage, storeMessageRelaxed, storeOutList, type MessageRelaxed } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { SendMode, WalletContractV2R2, WalletContractV3R2, WalletContractV4, WalletContractV5Beta, WalletContractV5R1 } from '@ton/ton';
import { InvalidWalletBodyError, UnsupportedWalletError } from '../../src/risk/errors.ts';
import { OP_HIGHLOAD_V3_INTERNAL_TRANSFER, extractRiskMessages, walletInterfacesOf } from '../../src/risk/wallet-messages.ts';
import { externalMessageRisk, walletRisk, type WalletRisk } from '../../src/risk/wallet-risk.ts';
import { mainnetFile, mainnetSkip } from '../helpers/fixtures.ts';

const VECTORS = mainnetFile('risk/wallet-v4-messages.json');

interface Vector {
    name: string;
    boc_base64: string;
    expected: { gram: string; transfer_all_remaining_balance: boolean; jettons: Record<string, string>; nfts: string[] };
}

const keys = keyPairFromSeed(Buffer.alloc(32, 7));
const publicKey = keys.publicKey;
const GRAM = 1_000_000_000n;
const alice = Address.parse('0:' + 'a1'.repeat(32));
const jettonWallet = Address.parse('0:' + 'b2'.repeat(32));
const nftItem = Address.parse('0:' + 'c3'.repeat(32));

function plain(risk: WalletRisk) {
    return { native: risk.native, all: risk.transferAllRemainingBalance, jettons: Object.fromEntries(risk.jettons), nfts: risk.nfts };
}

function jettonTransferBody(amount: bigint): Cell {
    return beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).storeCoins(amount).storeAddress(alice).storeAddress(alice)
        .storeMaybeRef(null).storeCoins(1n).storeBit(false).endCell();
}

function jettonBurnBody(amount: bigint): Cell {
    return beginCell().storeUint(0x595f07bc, 32).storeUint(2, 64).storeCoins(amount).storeAddress(alice).storeMaybeRef(null).endCell();
}

function nftTransferBody(): Cell {
    return beginCell().storeUint(0x5fcc3d14, 32).storeUint(3, 64).storeAddress(alice).storeAddress(alice)
        .storeMaybeRef(null).storeCoins(0n).storeBit(false).endCell();
}

/** a jetton transfer, a burn on the same jetton wallet, an NFT transfer and a plain transfer */
function mixedMessages(): MessageRelaxed[] {
    return [
        internal({ to: jettonWallet, value: GRAM / 10n, body: jettonTransferBody(1_500n) }),
        internal({ to: jettonWallet, value: GRAM / 20n, body: jettonBurnBody(500n) }),
        internal({ to: nftItem, value: GRAM / 20n, body: nftTransferBody() }),
        internal({ to: alice, value: 2n * GRAM, body: 'hello' }),
    ];
}

const MIXED_EXPECTED = {
    native: 2_200_000_000n,
    all: false,
    jettons: { [jettonWallet.toRawString()]: 2_000n },
    nfts: [nftItem.toRawString()],
};

function externalTo(address: Address, body: Cell, init?: { code: Cell; data: Cell }): Cell {
    return beginCell().store(storeMessage(external({ to: address, body, init }))).endCell();
}

describe('wallet risk: real mainnet wallet v4 messages', { skip: mainnetSkip }, () => {
    const vectors = (JSON.parse(readFileSync(VECTORS, 'utf8')) as { cases: Vector[] }).cases;
    assert.equal(vectors.length, 4);
    for (const vector of vectors) {
        it(vector.name, () => {
            const message = loadMessage(Cell.fromBase64(vector.boc_base64).beginParse());
            const risk = walletRisk(extractRiskMessages(message.body, ['wallet_v4r2']));
            assert.deepEqual(plain(risk), {
                native: BigInt(vector.expected.gram),
                all: vector.expected.transfer_all_remaining_balance,
                jettons: Object.fromEntries(Object.entries(vector.expected.jettons).map(([k, v]) => [k, BigInt(v)])),
                nfts: vector.expected.nfts,
            });
        });
    }

    it('reads the same body as v4r1 (same layout) and rejects it as v3 (the op byte is left over)', () => {
        const message = loadMessage(Cell.fromBase64(vectors[0].boc_base64).beginParse());
        assert.equal(walletRisk(extractRiskMessages(message.body, ['wallet_v4r1'])).native, 3_000_000_000n);
        assert.throws(() => extractRiskMessages(message.body, ['wallet_v3r2']), InvalidWalletBodyError);
    });
});

describe('wallet risk: bodies built by the wallet contracts', () => {
    it('wallet v3r2: jetton transfer + burn summed per jetton wallet, NFT, plain transfer', () => {
        const wallet = WalletContractV3R2.create({ workchain: 0, publicKey });
        const body = wallet.createTransfer({ seqno: 5, secretKey: keys.secretKey, messages: mixedMessages(), sendMode: SendMode.PAY_GAS_SEPARATELY });
        const risk = externalMessageRisk(externalTo(wallet.address, body), wallet.init.code);
        assert.deepEqual(plain(risk), MIXED_EXPECTED);
    });

    it('wallet v4r2 with mode 128: transfer-all is flagged and the value still counted', () => {
        const wallet = WalletContractV4.create({ workchain: 0, publicKey });
        const body = wallet.createTransfer({
            seqno: 1, secretKey: keys.secretKey, sendMode: SendMode.CARRY_ALL_REMAINING_BALANCE,
            messages: [internal({ to: alice, value: 7n, body: 'all of it' })],
        });
        assert.deepEqual(plain(externalMessageRisk(externalTo(wallet.address, body), wallet.init.code)), { native: 7n, all: true, jettons: {}, nfts: [] });
    });

    it('wallet v4r2 plugin ops carry no messages', () => {
        const wallet = WalletContractV4.create({ workchain: 0, publicKey });
        const body = wallet.createRequest({
            seqno: 1, secretKey: keys.secretKey,
            action: { type: 'addPlugin', address: alice, forwardAmount: GRAM, queryId: 1n },
        });
        assert.deepEqual(plain(externalMessageRisk(externalTo(wallet.address, body), wallet.init.code)), { native: 0n, all: false, jettons: {}, nfts: [] });
    });

    it('wallet v5r1 (send_msg actions 0x0ec3c86d), detected from the StateInit of an undeployed wallet', () => {
        const wallet = WalletContractV5R1.create({ workchain: 0, publicKey });
        const body = wallet.createTransfer({ seqno: 0, secretKey: keys.secretKey, messages: mixedMessages(), sendMode: SendMode.PAY_GAS_SEPARATELY });
        const ext = externalTo(wallet.address, body, wallet.init);
        assert.deepEqual(plain(externalMessageRisk(ext, null)), MIXED_EXPECTED);
    });

    it('wallet v5r1 with mode 128', () => {
        const wallet = WalletContractV5R1.create({ workchain: 0, publicKey });
        const body = wallet.createTransfer({
            seqno: 3, secretKey: keys.secretKey, sendMode: SendMode.CARRY_ALL_REMAINING_BALANCE + SendMode.IGNORE_ERRORS,
            messages: [internal({ to: jettonWallet, value: 0n, body: jettonTransferBody(9n) })],
        });
        assert.deepEqual(plain(externalMessageRisk(externalTo(wallet.address, body), wallet.init.code)),
            { native: 0n, all: true, jettons: { [jettonWallet.toRawString()]: 9n }, nfts: [] });
    });

    it('the real account code wins over the message StateInit', () => {
        const v3 = WalletContractV3R2.create({ workchain: 0, publicKey });
        const v5 = WalletContractV5R1.create({ workchain: 0, publicKey });
        const body = v3.createTransfer({ seqno: 1, secretKey: keys.secretKey, messages: mixedMessages() });
        assert.deepEqual(plain(externalMessageRisk(externalTo(v3.address, body, v5.init), v3.init.code)), MIXED_EXPECTED);
        assert.throws(() => externalMessageRisk(externalTo(v3.address, body, v5.init), null), InvalidWalletBodyError);
    });
});

describe('wallet risk: highload wallet v3', () => {
    const self = Address.parse('0:' + 'd4'.repeat(32));

    function highloadBody(message: MessageRelaxed, mode: number): Cell {
        const request = beginCell()
            .storeUint(42, 32) // subwallet_id
            .storeRef(beginCell().store(storeMessageRelaxed(message)))
            .storeUint(mode, 8)
            .storeUint(1, 13).storeUint(2, 10) // query_id: shift, bit_number
            .storeUint(1_700_000_000, 64) // created_at
            .storeUint(3600, 22) // timeout
            .endCell();
        return beginCell().storeBuffer(Buffer.alloc(64, 1)).storeRef(request).endCell();
    }

    it('a single message', () => {
        const body = highloadBody(internal({ to: jettonWallet, value: GRAM, body: jettonTransferBody(77n) }), SendMode.PAY_GAS_SEPARATELY);
        assert.deepEqual(plain(walletRisk(extractRiskMessages(body, ['wallet_highload_v3'], self))),
            { native: GRAM, all: false, jettons: { [jettonWallet.toRawString()]: 77n }, nfts: [] });
    });

    it('a batch (internal_transfer to itself) counts the messages of its action list, not the self-message', () => {
        const actions = mixedMessages().map(outMsg => ({ type: 'sendMsg' as const, mode: SendMode.PAY_GAS_SEPARATELY, outMsg }));
        const batch = beginCell().storeUint(OP_HIGHLOAD_V3_INTERNAL_TRANSFER, 32).storeUint(9, 64)
            .storeRef(beginCell().store(storeOutList(actions))).endCell();
        const body = highloadBody(internal({ to: self, value: 10n * GRAM, body: batch }), SendMode.PAY_GAS_SEPARATELY);
        assert.deepEqual(plain(walletRisk(extractRiskMessages(body, ['wallet_highload_v3'], self))), MIXED_EXPECTED);
        // without the wallet's address the batch is just a message of 10 grams
        assert.equal(walletRisk(extractRiskMessages(body, ['wallet_highload_v3'])).native, 10n * GRAM);
    });
});

describe('wallet risk: versions we cannot read', () => {
    it('wallet v2r2 is an UnsupportedWalletError naming the version (400)', () => {
        const wallet = WalletContractV2R2.create({ workchain: 0, publicKey });
        const body = wallet.createTransfer({ seqno: 1, secretKey: keys.secretKey, messages: mixedMessages() });
        assert.throws(() => externalMessageRisk(externalTo(wallet.address, body), wallet.init.code), (error: unknown) => {
            assert.ok(error instanceof UnsupportedWalletError);
            assert.equal(error.version, 'wallet_v2r2');
            assert.equal(error.statusCode, 400);
            assert.match(error.message, /wallet_v2r2/);
            return true;
        });
    });

    it('wallet v5 beta (a library cell code) is named too', () => {
        const wallet = WalletContractV5Beta.create({ publicKey });
        assert.deepEqual(walletInterfacesOf(wallet.init.code, null), ['wallet_v5_beta']);
        assert.throws(() => extractRiskMessages(Cell.EMPTY, walletInterfacesOf(wallet.init.code, null)), { name: 'UnsupportedWalletError', version: 'wallet_v5_beta' } as object);
    });

    it('highload v2 and unknown code', () => {
        assert.throws(() => extractRiskMessages(Cell.EMPTY, ['wallet_highload_v2']), { version: 'wallet_highload_v2' } as object);
        const unknownCode = beginCell().storeUint(0xdead, 16).endCell();
        assert.deepEqual(walletInterfacesOf(unknownCode, null), []);
        assert.throws(() => extractRiskMessages(Cell.EMPTY, walletInterfacesOf(unknownCode, null)), (error: unknown) =>
            error instanceof UnsupportedWalletError && error.version === 'unknown');
    });

    it('a garbled body of a supported version is an InvalidWalletBodyError', () => {
        assert.throws(() => extractRiskMessages(beginCell().storeUint(1, 8).endCell(), ['wallet_v4r2']), (error: unknown) =>
            error instanceof InvalidWalletBodyError && error.statusCode === 400 && /wallet_v4r2/.test(error.message));
    });
});
