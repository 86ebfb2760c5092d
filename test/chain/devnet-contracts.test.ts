import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { Address, Cell, Dictionary, beginCell, internal, type Message, type MessageRelaxed, type Slice, type TupleItem } from '@ton/core';
import { runTolkCompiler } from '@ton/tolk-js';
import { CONTRACT_NAMES, contractArtifact, contractCode } from '../../src/chain/devnet/contracts/artifacts.ts';
import {
    JETTON_EXIT,
    JETTON_TON,
    jettonBurnBody,
    jettonChangeAdminBody,
    jettonChangeContentBody,
    jettonInternalTransferBody,
    jettonMinterAddress,
    jettonMinterStateInit,
    jettonMintBody,
    jettonTransferBody,
    jettonWalletAddress,
    jettonWalletStateInit,
    provideWalletAddressBody,
    type JettonMinterConfig,
} from '../../src/chain/devnet/contracts/jetton.ts';
import { LIBRARIAN_OP, LIBRARIAN_TON, librarianAddress, librarianStateInit, publishLibraryBody, withdrawLibraryBody } from '../../src/chain/devnet/contracts/librarian.ts';
import { nftCommonContent, nftOffchainSuffix, offchainContent, onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import {
    NFT_EXIT,
    NFT_TON,
    nftBatchDeployBody,
    nftCollectionAddress,
    nftCollectionStateInit,
    nftDeployItemBody,
    nftGetRoyaltyParamsBody,
    nftGetStaticDataBody,
    nftItemAddress,
    nftTransferBody,
    type NftCollectionConfig,
} from '../../src/chain/devnet/contracts/nft.ts';
import { commentCell, commentPayload } from '../../src/chain/devnet/contracts/payload.ts';
import { uninitializedAccount } from '../../src/chain/devnet/genesis.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { TvmChain } from '../../src/chain/devnet/tvm-chain.ts';
import { walletSeqno } from '../../src/chain/devnet/seed.ts';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { loadTextComment } from '../../src/ton/bodies/comment.ts';
import { librariesDictionary, libraryCell, publicLibrariesOf } from '../../src/ton/libraries.ts';
import {
    loadExcess,
    loadJettonBurnNotification,
    loadJettonInternalTransfer,
    loadJettonNotify,
    loadTakeWalletAddress,
} from '../../src/ton/bodies/jetton.ts';
import { loadNftOwnershipAssigned, loadReportRoyaltyParams, loadReportStaticData } from '../../src/ton/bodies/nft.ts';
import { describeTx, type Executed } from './executed-transaction.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;
const ROOT = join(import.meta.dirname, '..', '..');

/** Op codes as the TEPs define them (written out here, not taken from the code under test). */
const TEP = {
    jettonTransfer: 0x0f8a7ea5,
    internalTransfer: 0x178d4519,
    transferNotification: 0x7362d09c,
    excesses: 0xd53276db,
    burn: 0x595f07bc,
    burnNotification: 0x7bdd97de,
    provideWalletAddress: 0x2c76b973,
    takeWalletAddress: 0xd1735400,
    mint: 0x642b7d07,
    nftTransfer: 0x5fcc3d14,
    ownershipAssigned: 0x05138d91,
    getStaticData: 0x2fcb26a2,
    reportStaticData: 0x8b771735,
    getRoyaltyParams: 0x693d3950,
    reportRoyaltyParams: 0xa8cb00ad,
    bounced: 0xffffffff,
} as const;

function seed(label: string): Buffer {
    return createHash('sha256').update(`devnet-contracts ${label}`).digest();
}




/** The one transaction of `account` whose inbound op is `op`. */
function txOf(txs: Executed[], account: Address, op: number): Executed {
    const found = txs.filter(t => t.account === account.toRawString() && t.op === op);
    assert.equal(found.length, 1, `one tx of ${account.toRawString()} with op 0x${op.toString(16)}; got ${txs.map(t => `${t.account.slice(0, 8)}/${t.op?.toString(16)}`).join(', ')}`);
    return found[0];
}

function addressSlice(a: Address): TupleItem {
    return { type: 'slice', cell: beginCell().storeAddress(a).endCell() };
}

/** Forward payload of a transfer_notification / ownership_assigned as a text comment. */
function commentOf(payload: { isRight: boolean; value: Cell | null }): string {
    assert.ok(payload.value, 'a forward payload');
    return loadTextComment(payload.value.beginParse()).text;
}

/** TEP-64 content decoded independently of metadata.ts: on-chain attributes or the off-chain URI. */
function readContent(content: Cell): { onchain?: Record<string, string>; uri?: string } {
    const s = content.beginParse();
    const layout = s.loadUint(8);
    if (layout === 0x01) return { uri: snakeText(s) };
    assert.equal(layout, 0x00, 'TEP-64 layout byte');
    const dict = s.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const names = ['name', 'symbol', 'decimals', 'description', 'image'];
    const onchain: Record<string, string> = {};
    for (const name of names) {
        const value = dict.get(createHash('sha256').update(name).digest());
        if (!value) continue;
        const v = value.beginParse();
        assert.equal(v.loadUint(8), 0x00, `${name}: snake#00`);
        onchain[name] = snakeText(v);
    }
    assert.equal(dict.size, Object.keys(onchain).length, 'only known attributes');
    return { onchain };
}

function snakeText(s: Slice): string {
    const parts: Buffer[] = [];
    for (let cur: Slice | null = s; cur; cur = cur.remainingRefs ? cur.loadRef().beginParse() : null) {
        assert.equal(cur.remainingBits % 8, 0);
        parts.push(cur.loadBuffer(cur.remainingBits / 8));
    }
    return Buffer.concat(parts).toString('utf8');
}

/** `const NAME = 123` from a Tolk source, to compare the contracts' gas constants with what the TVM measured. */
function tolkConstant(file: string, name: string): number {
    const m = readFileSync(join(ROOT, 'contracts', file), 'utf8').match(new RegExp(`const ${name} = (\\d+)`));
    assert.ok(m, `${name} in contracts/${file}`);
    return Number(m[1]);
}

class Devnet {
    constructor(readonly chain: TvmChain) {}

    async fund(wallet: DevnetWallet, balance: bigint): Promise<void> {
        this.chain.setShardAccount(wallet.address, uninitializedAccount(wallet, balance, UTIME));
    }

    /** An external message from `wallet` carrying `messages`; every transaction of the cascade. */
    async send(wallet: DevnetWallet, messages: MessageRelaxed[]): Promise<Executed[]> {
        const external = await wallet.transfer(await walletSeqno(this.chain, wallet), UTIME + 60, messages);
        await this.chain.sendMessage(external);
        const txs = this.chain.drainTransactions().map(tx => describeTx(tx.parsed));
        assert.equal(txs[0].account, wallet.address.toRawString());
        assert.ok(txs[0].success, 'the wallet accepted the external message');
        return txs.slice(1);
    }

    /**
     * An internal message put straight into the chain, as if `from` had sent it: here, bounces of
     * messages a contract sent, which no wallet can make.
     */
    async injectBounce(from: Address, to: Address, originalBody: Cell): Promise<Executed[]> {
        const message: Message = {
            info: {
                type: 'internal', ihrDisabled: true, bounce: false, bounced: true, src: from, dest: to,
                value: { coins: GRAM / 100n }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: UTIME,
            },
            body: beginCell().storeUint(TEP.bounced, 32).storeBits(originalBody.beginParse().loadBits(Math.min(256, originalBody.bits.length))).endCell(),
        };
        await this.chain.sendMessage(message);
        return this.chain.drainTransactions().map(tx => describeTx(tx.parsed));
    }

    async get(address: Address, method: string, args: TupleItem[] = []) {
        const result = await this.chain.runGetMethod(address, method, args);
        assert.equal(result.exitCode, 0, `${method} exit code`);
        return result.stackReader;
    }

    async walletData(wallet: Address) {
        const r = await this.get(wallet, 'get_wallet_data');
        return { balance: r.readBigNumber(), owner: r.readAddress(), master: r.readAddress(), code: r.readCell() };
    }

    async jettonData(minter: Address) {
        const r = await this.get(minter, 'get_jetton_data');
        return { totalSupply: r.readBigNumber(), mintable: r.readBoolean(), admin: r.readAddressOpt(), content: r.readCell(), walletCode: r.readCell() };
    }

    async walletAddressOf(minter: Address, owner: Address): Promise<Address> {
        return (await this.get(minter, 'get_wallet_address', [addressSlice(owner)])).readAddress();
    }

    async codeHash(address: Address): Promise<string> {
        const state = this.chain.shardAccount(address).account?.storage.state;
        assert.equal(state?.type, 'active');
        return state.type === 'active' ? state.state.code!.hash().toString('hex') : '';
    }
}

describe('devnet contracts: artifacts', () => {
    test('the committed artifacts are what the Tolk sources compile to', async () => {
        const sources = join(ROOT, 'contracts');
        for (const name of CONTRACT_NAMES) {
            const result = await runTolkCompiler({
                entrypointFileName: `${name}.tolk`,
                fsReadCallback: path => readFileSync(normalize(join(sources, path)), 'utf8'),
            });
            assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
            if (result.status !== 'ok') continue;
            const artifact = contractArtifact(name);
            assert.equal(artifact.codeHashHex, result.codeHashHex.toLowerCase(), `${name}: run npm run build:contracts`);
            assert.equal(artifact.codeBoc64, result.codeBoc64);
            assert.equal(artifact.tolkVersion, result.tolkVersion);
            assert.equal(contractCode(name).hash().toString('hex'), artifact.codeHashHex);
        }
    });

    test('the StateInit bound the jetton wallet uses for its fees covers the real StateInit', () => {
        const init = jettonWalletStateInit(new Address(0, seed('owner')), new Address(0, seed('master')));
        const cells = new Map<string, Cell>();
        const walk = (c: Cell) => {
            if (cells.has(c.hash().toString('hex'))) return;
            cells.set(c.hash().toString('hex'), c);
            c.refs.forEach(walk);
        };
        walk(init.code!);
        walk(init.data!);
        const bits = [...cells.values()].reduce((n, c) => n + c.bits.length, 0);
        assert.ok(cells.size <= tolkConstant('common/jetton.tolk', 'WALLET_STATE_INIT_CELLS'), `${cells.size} cells`);
        assert.ok(bits <= tolkConstant('common/jetton.tolk', 'WALLET_STATE_INIT_BITS'), `${bits} bits`);
    });
});

describe('devnet contracts on the TVM', () => {
    let net: Devnet;
    const admin = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('admin')));
    const alice = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('alice')));
    const bob = new DevnetWallet('wallet_v3r2', keyPairFromSeed(seed('bob')));

    const tokenA: JettonMinterConfig = {
        admin: admin.address,
        content: onchainContent({ name: 'Devnet Gold', symbol: 'DGLD', decimals: 9, description: 'An on-chain jetton of the devnet', image: 'https://example.org/dgld.png' }),
    };
    const tokenB: JettonMinterConfig = {
        admin: admin.address,
        content: offchainContent('http://127.0.0.1:8099/jettons/dusd.json'),
    };
    const minterA = jettonMinterAddress(tokenA);
    const minterB = jettonMinterAddress(tokenB);
    const A = (n: bigint) => n * 10n ** 9n;
    const B = (n: bigint) => n * 10n ** 6n;
    const aliceA = jettonWalletAddress(alice.address, minterA);
    const bobA = jettonWalletAddress(bob.address, minterA);
    const aliceB = jettonWalletAddress(alice.address, minterB);
    const bobB = jettonWalletAddress(bob.address, minterB);

    before(async () => {
        const chain = await TvmChain.start();
        chain.now = UTIME;
        net = new Devnet(chain);
        for (const w of [admin, alice, bob]) await net.fund(w, 1000n * GRAM);
        // Deploy the wallets (the first transfer of each carries its StateInit).
        for (const w of [admin, alice, bob]) await net.send(w, [internal({ to: admin.address, value: GRAM / 100n, bounce: false })]);
    });

    describe('jettons', () => {
        let mintA: Executed[];
        let mintB: Executed[];

        before(async () => {
            mintA = await net.send(admin, [internal({
                to: minterA,
                value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead,
                bounce: false,
                init: jettonMinterStateInit(tokenA),
                body: jettonMintBody({ queryId: 1n, to: alice.address, amount: A(1000n), from: minterA, responseAddress: admin.address }),
            })]);
            mintB = await net.send(admin, [internal({
                to: minterB,
                value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead + GRAM / 100n,
                bounce: false,
                init: jettonMinterStateInit(tokenB),
                body: jettonMintBody({
                    queryId: 2n, to: alice.address, amount: B(5000n), from: minterB, responseAddress: admin.address,
                    forwardTonAmount: GRAM / 100n, forwardPayload: commentPayload('welcome to DUSD'),
                }),
            })]);
        });

        test('mint deploys the minter and the holder\'s wallet, and credits it', async () => {
            const minterTx = txOf(mintA, minterA, TEP.mint);
            assert.ok(minterTx.success);
            assert.equal(await net.codeHash(minterA), contractArtifact('jetton-minter').codeHashHex);
            assert.deepEqual(minterTx.out.map(o => [o.to, o.op, o.bounce]), [[aliceA.toRawString(), TEP.internalTransfer, true]]);

            const walletTx = txOf(mintA, aliceA, TEP.internalTransfer);
            assert.ok(walletTx.success, `exit ${walletTx.exitCode}`);
            assert.equal(await net.codeHash(aliceA), contractArtifact('jetton-wallet').codeHashHex);
            const transfer = loadJettonInternalTransfer(walletTx.body!.beginParse());
            assert.equal(transfer.amount, A(1000n));
            assert.equal(transfer.queryId, 1n);
            assert.ok(transfer.from?.equals(minterA));
            // No forward_ton_amount: no notification, only the excesses to the response address.
            assert.deepEqual(walletTx.out.map(o => [o.to, o.op]), [[admin.address.toRawString(), TEP.excesses]]);
            assert.equal(loadExcess(txOf(mintA, admin.address, TEP.excesses).body!.beginParse()).queryId, 1n);

            const data = await net.walletData(aliceA);
            assert.equal(data.balance, A(1000n));
            assert.ok(data.owner.equals(alice.address));
            assert.ok(data.master.equals(minterA));
            assert.equal(data.code.hash().toString('hex'), contractArtifact('jetton-wallet').codeHashHex);
        });

        test('a mint with forward_ton_amount notifies the holder with the comment', async () => {
            const walletTx = txOf(mintB, aliceB, TEP.internalTransfer);
            assert.ok(walletTx.success);
            assert.deepEqual(walletTx.out.map(o => o.op), [TEP.transferNotification, TEP.excesses]);
            const notifyTx = txOf(mintB, alice.address, TEP.transferNotification);
            assert.equal(notifyTx.value, GRAM / 100n);
            const notify = loadJettonNotify(notifyTx.body!.beginParse());
            assert.equal(notify.amount, B(5000n));
            assert.ok(notify.sender?.equals(minterB));
            assert.equal(commentOf(notify.forwardPayload), 'welcome to DUSD');
            assert.equal((await net.walletData(aliceB)).balance, B(5000n));
        });

        test('get_wallet_address gives back exactly the wallets that received the tokens', async () => {
            assert.ok((await net.walletAddressOf(minterA, alice.address)).equals(aliceA));
            assert.ok((await net.walletAddressOf(minterB, alice.address)).equals(aliceB));
            assert.ok((await net.walletAddressOf(minterA, bob.address)).equals(bobA));
            assert.equal(txOf(mintA, minterA, TEP.mint).out[0].to, (await net.walletAddressOf(minterA, alice.address)).toRawString());
        });

        test('alice transfers to bob with a text comment: bob is notified, alice gets the excesses', async () => {
            const forward = 20_000_000n;
            const txs = await net.send(alice, [internal({
                to: aliceA,
                value: JETTON_TON.transfer + forward,
                bounce: true,
                body: jettonTransferBody({
                    queryId: 7n, amount: A(150n), destination: bob.address, responseDestination: alice.address,
                    forwardTonAmount: forward, forwardPayload: commentPayload('thanks for the coffee'),
                }),
            })]);
            const send = txOf(txs, aliceA, TEP.jettonTransfer);
            assert.ok(send.success, `exit ${send.exitCode}`);
            assert.deepEqual(send.out.map(o => [o.to, o.op, o.bounce]), [[bobA.toRawString(), TEP.internalTransfer, true]]);
            const receive = txOf(txs, bobA, TEP.internalTransfer);
            assert.ok(receive.success, `exit ${receive.exitCode}`);
            const internalTransfer = loadJettonInternalTransfer(receive.body!.beginParse());
            assert.ok(internalTransfer.from?.equals(alice.address));
            assert.ok(internalTransfer.responseAddress?.equals(alice.address));
            assert.equal(internalTransfer.forwardTonAmount, forward);
            assert.deepEqual(receive.out.map(o => [o.to, o.op]), [[bob.address.toRawString(), TEP.transferNotification], [alice.address.toRawString(), TEP.excesses]]);

            const notifyTx = txOf(txs, bob.address, TEP.transferNotification);
            assert.equal(notifyTx.value, forward);
            const notify = loadJettonNotify(notifyTx.body!.beginParse());
            assert.equal(notify.queryId, 7n);
            assert.equal(notify.amount, A(150n));
            assert.ok(notify.sender?.equals(alice.address));
            assert.equal(notify.forwardPayload.isRight, true);
            assert.equal(commentOf(notify.forwardPayload), 'thanks for the coffee');

            const excess = txOf(txs, alice.address, TEP.excesses);
            assert.equal(loadExcess(excess.body!.beginParse()).queryId, 7n);
            assert.ok(excess.value > JETTON_TON.transfer / 2n, `excesses of ${excess.value}`);

            assert.equal((await net.walletData(aliceA)).balance, A(850n));
            const bobData = await net.walletData(bobA);
            assert.equal(bobData.balance, A(150n));
            assert.ok(bobData.owner.equals(bob.address));
            assert.equal(await net.codeHash(bobA), contractArtifact('jetton-wallet').codeHashHex);

            assert.ok(send.gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_WALLET_TRANSFER')), `transfer gas ${send.gasUsed}`);
            assert.ok(receive.gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_WALLET_RECEIVE')), `receive gas ${receive.gasUsed}`);
        });

        test('a transfer with a binary forward payload carries it unchanged', async () => {
            const payload = beginCell().storeUint(0x12345678, 32).storeUint(42, 64).storeAddress(admin.address).endCell();
            const forward = 5_000_000n;
            const txs = await net.send(alice, [internal({
                to: aliceB,
                value: JETTON_TON.transfer + forward,
                bounce: true,
                body: jettonTransferBody({ queryId: 8n, amount: B(1234n), destination: bob.address, forwardTonAmount: forward, forwardPayload: { cell: payload, inline: true } }),
            })]);
            assert.ok(txOf(txs, aliceB, TEP.jettonTransfer).success);
            const receive = txOf(txs, bobB, TEP.internalTransfer);
            assert.ok(receive.success);
            // No response destination: the notification only.
            assert.deepEqual(receive.out.map(o => o.op), [TEP.transferNotification]);
            const notify = loadJettonNotify(txOf(txs, bob.address, TEP.transferNotification).body!.beginParse());
            assert.equal(notify.amount, B(1234n));
            assert.equal(notify.forwardPayload.isRight, false);
            assert.equal(notify.forwardPayload.value?.hash().toString('hex'), payload.hash().toString('hex'));
            assert.equal((await net.walletData(bobB)).balance, B(1234n));
        });

        test('bob burns: the supply decreases and bob gets the excesses', async () => {
            const before = await net.jettonData(minterA);
            assert.equal(before.totalSupply, A(1000n));
            const txs = await net.send(bob, [internal({
                to: bobA,
                value: JETTON_TON.burn,
                bounce: true,
                body: jettonBurnBody({ queryId: 9n, amount: A(50n), responseDestination: bob.address }),
            })]);
            const burn = txOf(txs, bobA, TEP.burn);
            assert.ok(burn.success, `exit ${burn.exitCode}`);
            assert.deepEqual(burn.out.map(o => [o.to, o.op, o.bounce]), [[minterA.toRawString(), TEP.burnNotification, true]]);
            const notification = txOf(txs, minterA, TEP.burnNotification);
            assert.ok(notification.success, `exit ${notification.exitCode}`);
            const parsed = loadJettonBurnNotification(notification.body!.beginParse());
            assert.equal(parsed.amount, A(50n));
            assert.ok(parsed.sender?.equals(bob.address));
            assert.ok(parsed.responseDestination?.equals(bob.address));
            assert.equal(loadExcess(txOf(txs, bob.address, TEP.excesses).body!.beginParse()).queryId, 9n);

            assert.equal((await net.jettonData(minterA)).totalSupply, A(950n));
            assert.equal((await net.walletData(bobA)).balance, A(100n));
            assert.ok(burn.gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_WALLET_BURN')), `burn gas ${burn.gasUsed}`);
            assert.ok(notification.gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_MINTER_BURN_NOTIFICATION')), `burn notification gas ${notification.gasUsed}`);
        });

        test('an internal_transfer sent by a plain wallet is refused by the jetton wallet and bounces', async () => {
            const txs = await net.send(alice, [internal({
                to: bobA,
                value: GRAM / 10n,
                bounce: true,
                body: jettonInternalTransferBody({ queryId: 10n, amount: A(1_000_000n), from: alice.address, responseAddress: alice.address }),
            })]);
            const refused = txOf(txs, bobA, TEP.internalTransfer);
            assert.equal(refused.success, false);
            assert.equal(refused.exitCode, JETTON_EXIT.invalidSender);
            assert.notEqual(refused.exitCode, 0);
            assert.deepEqual(refused.out.map(o => [o.to, o.op, o.bounce]), [[alice.address.toRawString(), TEP.bounced, false]]);
            const bounce = txOf(txs, alice.address, TEP.bounced);
            assert.equal(bounce.bounced, true);
            assert.equal(bounce.body!.beginParse().skip(32).loadUint(32), TEP.internalTransfer);
            assert.equal((await net.walletData(bobA)).balance, A(100n));
        });

        test('a transfer from someone else than the owner is refused', async () => {
            const txs = await net.send(bob, [internal({
                to: aliceA,
                value: JETTON_TON.transfer,
                bounce: true,
                body: jettonTransferBody({ amount: A(1n), destination: bob.address, responseDestination: bob.address }),
            })]);
            assert.equal(txOf(txs, aliceA, TEP.jettonTransfer).exitCode, JETTON_EXIT.notOwner);
            assert.equal((await net.walletData(aliceA)).balance, A(850n));
        });

        test('a transfer of more than the balance, or with too little TON, is refused', async () => {
            const tooMuch = await net.send(alice, [internal({
                to: aliceA, value: JETTON_TON.transfer, bounce: true,
                body: jettonTransferBody({ amount: A(851n), destination: bob.address }),
            })]);
            assert.equal(txOf(tooMuch, aliceA, TEP.jettonTransfer).exitCode, JETTON_EXIT.balanceTooLow);
            const poor = await net.send(alice, [internal({
                to: aliceA, value: 5_000_000n, bounce: true,
                body: jettonTransferBody({ amount: A(1n), destination: bob.address }),
            })]);
            assert.equal(txOf(poor, aliceA, TEP.jettonTransfer).exitCode, JETTON_EXIT.notEnoughTon);
            assert.equal((await net.walletData(aliceA)).balance, A(850n));
        });

        test('mint is for the admin only', async () => {
            const txs = await net.send(alice, [internal({
                to: minterA, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: true,
                body: jettonMintBody({ to: alice.address, amount: A(1n) }),
            })]);
            assert.equal(txOf(txs, minterA, TEP.mint).exitCode, JETTON_EXIT.notAdmin);
            assert.equal((await net.jettonData(minterA)).totalSupply, A(950n));
        });

        test('provide_wallet_address answers take_wallet_address (TEP-89)', async () => {
            const master = new Address(-1, seed('masterchain owner'));
            const txs = await net.send(alice, [
                internal({ to: minterA, value: JETTON_TON.provideWalletAddress, bounce: true, body: provideWalletAddressBody({ queryId: 11n, owner: bob.address, includeAddress: true }) }),
                internal({ to: minterA, value: JETTON_TON.provideWalletAddress, bounce: true, body: provideWalletAddressBody({ queryId: 12n, owner: master }) }),
            ]);
            const answers = txs.filter(t => t.account === alice.address.toRawString() && t.op === TEP.takeWalletAddress)
                .map(t => loadTakeWalletAddress(t.body!.beginParse()))
                .sort((a, b) => Number(a.queryId - b.queryId));
            assert.equal(answers.length, 2);
            assert.ok(answers[0].walletAddress?.equals(bobA));
            assert.ok(answers[0].ownerAddress?.equals(bob.address));
            assert.equal(answers[1].walletAddress, null, 'addr_none for a masterchain owner');
            assert.equal(answers[1].ownerAddress, undefined);
            for (const t of txs.filter(t => t.account === minterA.toRawString())) {
                assert.ok(t.gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_MINTER_PROVIDE_ADDRESS')), `provide gas ${t.gasUsed}`);
            }
        });

        test('get_jetton_data: supply, admin, TEP-64 content and wallet code of both jettons', async () => {
            const a = await net.jettonData(minterA);
            assert.equal(a.totalSupply, A(950n));
            assert.equal(a.mintable, true);
            assert.ok(a.admin?.equals(admin.address));
            assert.equal(a.walletCode.hash().toString('hex'), contractArtifact('jetton-wallet').codeHashHex);
            assert.deepEqual(readContent(a.content), {
                onchain: { name: 'Devnet Gold', symbol: 'DGLD', decimals: '9', description: 'An on-chain jetton of the devnet', image: 'https://example.org/dgld.png' },
            });
            const b = await net.jettonData(minterB);
            assert.equal(b.totalSupply, B(5000n));
            assert.deepEqual(readContent(b.content), { uri: 'http://127.0.0.1:8099/jettons/dusd.json' });
            assert.equal((await net.walletData(aliceB)).balance + (await net.walletData(bobB)).balance, B(5000n));
        });

        test('a bounced internal_transfer gives the jettons back to the sender, a bounced mint takes them off the supply', async () => {
            const body = jettonInternalTransferBody({ queryId: 13n, amount: A(25n), from: alice.address, responseAddress: alice.address });
            const wallet = await net.injectBounce(bobA, aliceA, body);
            assert.equal(wallet.length, 1);
            assert.ok(wallet[0].success && wallet[0].bounced);
            assert.equal((await net.walletData(aliceA)).balance, A(875n));
            const minter = await net.injectBounce(aliceA, minterA, body);
            assert.ok(minter[0].success && minter[0].bounced);
            assert.equal((await net.jettonData(minterA)).totalSupply, A(925n));
        });

        test('a bounced burn_notification gives the jettons back to the burner', async () => {
            const body = beginCell().storeUint(TEP.burnNotification, 32).storeUint(14n, 64).storeCoins(A(5n)).storeAddress(bob.address).storeAddress(bob.address).endCell();
            const txs = await net.injectBounce(minterA, bobA, body);
            assert.ok(txs[0].success && txs[0].bounced);
            assert.equal((await net.walletData(bobA)).balance, A(105n));
        });

        test('the admin changes the content, then renounces: the jetton is no longer mintable', async () => {
            const content = offchainContent('http://127.0.0.1:8099/jettons/dusd-v2.json');
            const txs = await net.send(admin, [
                internal({ to: minterB, value: GRAM / 50n, bounce: true, body: jettonChangeContentBody({ queryId: 15n, content }) }),
                internal({ to: minterB, value: GRAM / 50n, bounce: true, body: jettonChangeAdminBody({ queryId: 16n, newAdmin: null }) }),
            ]);
            assert.ok(txs.every(t => t.success), txs.map(t => t.exitCode).join(','));
            const data = await net.jettonData(minterB);
            assert.equal(data.mintable, false);
            assert.equal(data.admin, null);
            assert.deepEqual(readContent(data.content), { uri: 'http://127.0.0.1:8099/jettons/dusd-v2.json' });
            const refused = await net.send(admin, [internal({
                to: minterB, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: true,
                body: jettonMintBody({ to: admin.address, amount: B(1n) }),
            })]);
            assert.equal(txOf(refused, minterB, TEP.mint).exitCode, JETTON_EXIT.notAdmin);
            assert.equal((await net.jettonData(minterB)).totalSupply, B(5000n));
        });

        test('the mint gas stays within the contracts\' estimates', () => {
            assert.ok(txOf(mintA, minterA, TEP.mint).gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_MINTER_MINT')));
            assert.ok(txOf(mintB, aliceB, TEP.internalTransfer).gasUsed <= BigInt(tolkConstant('common/jetton.tolk', 'GAS_WALLET_RECEIVE')));
        });
    });

    describe('NFTs', () => {
        const collection: NftCollectionConfig = {
            owner: admin.address,
            collectionContent: onchainContent({ name: 'Devnet Cats', description: 'Cats of the devnet', image: 'https://example.org/cats.png' }),
            commonContent: nftCommonContent('http://127.0.0.1:8099/nft/'),
            royalty: { numerator: 5, denominator: 100, destination: admin.address },
        };
        const collectionAddress = nftCollectionAddress(collection);
        const item = (i: bigint) => nftItemAddress(i, collectionAddress);
        const item1Content = onchainContent({ name: 'Cat #1', description: 'An on-chain cat', image: 'https://example.org/cat1.png' });
        let deploy: Executed[];
        let batch: Executed[];

        before(async () => {
            deploy = await net.send(admin, [internal({
                to: collectionAddress,
                value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead,
                bounce: false,
                init: nftCollectionStateInit(collection),
                body: nftDeployItemBody({ queryId: 20n, index: 0n, owner: alice.address, content: nftOffchainSuffix('0.json') }),
            })]);
            batch = await net.send(admin, [internal({
                to: collectionAddress,
                value: 2n * (NFT_TON.itemDeployAmount + NFT_TON.deployOverhead),
                bounce: true,
                body: nftBatchDeployBody({
                    queryId: 21n,
                    items: [
                        { index: 1n, owner: alice.address, content: item1Content },
                        { index: 2n, owner: bob.address, content: nftOffchainSuffix('2.json') },
                    ],
                }),
            })]);
        });

        test('the collection deploys items, one by one and in a batch', async () => {
            const deployTx = txOf(deploy, collectionAddress, 0x00000001);
            assert.ok(deployTx.success, `exit ${deployTx.exitCode}`);
            assert.equal(await net.codeHash(collectionAddress), contractArtifact('nft-collection').codeHashHex);
            assert.deepEqual(deployTx.out.map(o => o.to), [item(0n).toRawString()]);
            assert.ok(deploy.find(t => t.account === item(0n).toRawString())?.success);
            assert.equal(await net.codeHash(item(0n)), contractArtifact('nft-item').codeHashHex);

            const batchTx = txOf(batch, collectionAddress, 0x00000002);
            assert.ok(batchTx.success, `exit ${batchTx.exitCode}`);
            assert.deepEqual(batchTx.out.map(o => o.to), [item(1n).toRawString(), item(2n).toRawString()]);
            for (const i of [1n, 2n]) assert.ok(batch.find(t => t.account === item(i).toRawString())?.success);
        });

        test('get_collection_data and get_nft_address_by_index agree with the deployed items', async () => {
            const r = await net.get(collectionAddress, 'get_collection_data');
            assert.equal(r.readBigNumber(), 3n);
            assert.deepEqual(readContent(r.readCell()), { onchain: { name: 'Devnet Cats', description: 'Cats of the devnet', image: 'https://example.org/cats.png' } });
            assert.ok(r.readAddress().equals(admin.address));
            for (const i of [0n, 1n, 2n]) {
                const byIndex = (await net.get(collectionAddress, 'get_nft_address_by_index', [{ type: 'int', value: i }])).readAddress();
                assert.ok(byIndex.equals(item(i)), `item ${i}`);
            }
            const royalty = await net.get(collectionAddress, 'royalty_params');
            assert.equal(royalty.readNumber(), 5);
            assert.equal(royalty.readNumber(), 100);
            assert.ok(royalty.readAddress().equals(admin.address));
        });

        test('get_nft_data and get_nft_content give each item\'s TEP-64 content', async () => {
            const expected = [
                { owner: alice.address, content: { uri: 'http://127.0.0.1:8099/nft/0.json' } },
                { owner: alice.address, content: { onchain: { name: 'Cat #1', description: 'An on-chain cat', image: 'https://example.org/cat1.png' } } },
                { owner: bob.address, content: { uri: 'http://127.0.0.1:8099/nft/2.json' } },
            ];
            for (const [i, want] of expected.entries()) {
                const r = await net.get(item(BigInt(i)), 'get_nft_data');
                assert.equal(r.readBoolean(), true);
                assert.equal(r.readBigNumber(), BigInt(i));
                assert.ok(r.readAddress().equals(collectionAddress));
                assert.ok(r.readAddress().equals(want.owner));
                const individual = r.readCell();
                const full = (await net.get(collectionAddress, 'get_nft_content', [{ type: 'int', value: BigInt(i) }, { type: 'cell', cell: individual }])).readCell();
                assert.deepEqual(readContent(full), want.content, `item ${i}`);
            }
        });

        test('alice transfers item 0 to bob: ownership_assigned to bob, excesses to alice', async () => {
            const forward = 10_000_000n;
            const txs = await net.send(alice, [internal({
                to: item(0n),
                value: NFT_TON.transfer + forward,
                bounce: true,
                body: nftTransferBody({ queryId: 30n, newOwner: bob.address, responseDestination: alice.address, forwardAmount: forward, forwardPayload: commentPayload('a cat for you') }),
            })]);
            const transfer = txOf(txs, item(0n), TEP.nftTransfer);
            assert.ok(transfer.success, `exit ${transfer.exitCode}`);
            assert.deepEqual(transfer.out.map(o => [o.to, o.op]), [[bob.address.toRawString(), TEP.ownershipAssigned], [alice.address.toRawString(), TEP.excesses]]);
            const assignedTx = txOf(txs, bob.address, TEP.ownershipAssigned);
            assert.equal(assignedTx.value, forward);
            const assigned = loadNftOwnershipAssigned(assignedTx.body!.beginParse());
            assert.equal(assigned.queryId, 30n);
            assert.ok(assigned.prevOwner?.equals(alice.address));
            assert.equal(commentOf(assigned.forwardPayload), 'a cat for you');
            assert.equal(loadExcess(txOf(txs, alice.address, TEP.excesses).body!.beginParse()).queryId, 30n);

            const r = await net.get(item(0n), 'get_nft_data');
            r.skip(3);
            assert.ok(r.readAddress().equals(bob.address));
            assert.ok(transfer.gasUsed <= BigInt(tolkConstant('common/nft.tolk', 'GAS_NFT_TRANSFER')), `nft transfer gas ${transfer.gasUsed}`);
        });

        test('only the owner transfers an item', async () => {
            const txs = await net.send(alice, [internal({
                to: item(0n), value: NFT_TON.transfer, bounce: true,
                body: nftTransferBody({ newOwner: alice.address, responseDestination: alice.address }),
            })]);
            assert.equal(txOf(txs, item(0n), TEP.nftTransfer).exitCode, NFT_EXIT.notItemOwner);
        });

        test('get_static_data is answered with report_static_data', async () => {
            const txs = await net.send(bob, [internal({ to: item(2n), value: GRAM / 20n, bounce: true, body: nftGetStaticDataBody(40n) })]);
            assert.ok(txOf(txs, item(2n), TEP.getStaticData).success);
            const report = loadReportStaticData(txOf(txs, bob.address, TEP.reportStaticData).body!.beginParse());
            assert.equal(report.queryId, 40n);
            assert.equal(report.index, 2n);
            assert.ok(report.collection?.equals(collectionAddress));
        });

        test('get_royalty_params is answered with report_royalty_params (TEP-66)', async () => {
            const txs = await net.send(bob, [internal({ to: collectionAddress, value: GRAM / 20n, bounce: true, body: nftGetRoyaltyParamsBody(41n) })]);
            const report = loadReportRoyaltyParams(txOf(txs, bob.address, TEP.reportRoyaltyParams).body!.beginParse());
            assert.deepEqual([report.queryId, report.numerator, report.denominator], [41n, 5, 100]);
            assert.ok(report.destination?.equals(admin.address));
        });

        test('deploys beyond next_item_index, or by someone else than the owner, are refused', async () => {
            const gap = await net.send(admin, [internal({
                to: collectionAddress, value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead, bounce: true,
                body: nftDeployItemBody({ index: 5n, owner: alice.address, content: nftOffchainSuffix('5.json') }),
            })]);
            assert.equal(txOf(gap, collectionAddress, 0x00000001).exitCode, NFT_EXIT.indexOutOfRange);
            const stranger = await net.send(bob, [internal({
                to: collectionAddress, value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead, bounce: true,
                body: nftDeployItemBody({ index: 3n, owner: bob.address, content: nftOffchainSuffix('3.json') }),
            })]);
            assert.equal(txOf(stranger, collectionAddress, 0x00000001).exitCode, NFT_EXIT.notCollectionOwner);
            assert.equal((await net.get(collectionAddress, 'get_collection_data')).readBigNumber(), 3n);
        });

        test('an item that is not initialized accepts its first message from the collection only', async () => {
            // Item 3 deployed by a stranger with the right StateInit: it must not take an owner from him.
            const txs = await net.send(bob, [internal({
                to: item(3n), value: GRAM / 20n, bounce: true,
                init: { code: contractCode('nft-item'), data: beginCell().storeUint(3n, 64).storeAddress(collectionAddress).endCell() },
                body: beginCell().storeAddress(bob.address).storeRef(commentCell('mine')).endCell(),
            })]);
            const refused = txs.find(t => t.account === item(3n).toRawString());
            assert.equal(refused?.exitCode, NFT_EXIT.notFromCollection);
        });
    });

    describe('librarian', () => {
        const librarian = librarianAddress(admin.address);
        const walletCode = contractCode('jetton-wallet');
        const published = async () => {
            const state = net.chain.shardAccount(librarian).account?.storage.state;
            assert.equal(state?.type, 'active');
            return state.type === 'active' ? publicLibrariesOf(state.state.libraries) : new Map();
        };

        test('lives in the masterchain and publishes its owner\'s library as public', async () => {
            assert.equal(librarian.workChain, -1);
            const txs = await net.send(admin, [internal({
                to: librarian, value: LIBRARIAN_TON.publish, bounce: false, init: librarianStateInit(admin.address), body: publishLibraryBody(walletCode, 1n),
            })]);
            assert.ok(txOf(txs, librarian, LIBRARIAN_OP.publish).success);
            const libraries = await published();
            assert.deepEqual([...libraries.keys()], [walletCode.hash().toString('hex')]);
            assert.ok(libraries.get(walletCode.hash().toString('hex'))!.equals(walletCode));
            assert.ok((await net.get(librarian, 'get_owner')).readAddress().equals(admin.address));
        });

        test('refuses publishing and withdrawing by anyone but its owner; takes top-ups', async () => {
            const other = contractCode('nft-item');
            const publish = await net.send(bob, [internal({ to: librarian, value: LIBRARIAN_TON.publish, bounce: true, body: publishLibraryBody(other) })]);
            assert.equal(txOf(publish, librarian, LIBRARIAN_OP.publish).exitCode, 901);
            const withdraw = await net.send(bob, [internal({ to: librarian, value: GRAM, bounce: true, body: withdrawLibraryBody(walletCode.hash()) })]);
            assert.equal(txOf(withdraw, librarian, LIBRARIAN_OP.withdraw).exitCode, 901);
            const topUp = await net.send(bob, [internal({ to: librarian, value: GRAM, bounce: true })]);
            assert.ok(topUp.find(t => t.account === librarian.toRawString())?.success);
            assert.deepEqual([...(await published()).keys()], [walletCode.hash().toString('hex')]);
        });

        test('a jetton whose wallets carry a library cell runs on the published code', async () => {
            net.chain.libs = librariesDictionary(await published()) ?? undefined;
            const config: JettonMinterConfig = { admin: admin.address, content: onchainContent({ name: 'Library Gold', symbol: 'LGLD', decimals: 9 }), walletCode: libraryCell(walletCode) };
            const minter = jettonMinterAddress(config);
            const holder = jettonWalletAddress(alice.address, minter, config.walletCode);
            await net.send(admin, [internal({
                to: minter, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false, init: jettonMinterStateInit(config),
                body: jettonMintBody({ to: alice.address, amount: A(7n), from: minter, responseAddress: admin.address }),
            })]);
            assert.equal(await net.codeHash(holder), libraryCell(walletCode).hash().toString('hex'), 'the wallet\'s code is the library cell');
            assert.equal((await net.walletData(holder)).balance, A(7n));
            const sent = await net.send(alice, [internal({
                to: holder, value: JETTON_TON.transfer, bounce: true,
                body: jettonTransferBody({ amount: A(2n), destination: bob.address, responseDestination: alice.address }),
            })]);
            assert.ok(txOf(sent, holder, TEP.jettonTransfer).success);
            assert.equal((await net.walletData(jettonWalletAddress(bob.address, minter, config.walletCode))).balance, A(2n));
        });

        test('withdraws a library on its owner\'s request', async () => {
            const txs = await net.send(admin, [internal({ to: librarian, value: GRAM, bounce: true, body: withdrawLibraryBody(walletCode.hash()) })]);
            assert.ok(txOf(txs, librarian, LIBRARIAN_OP.withdraw).success);
            assert.equal((await published()).size, 0);
        });
    });
});
