import { createHash } from 'node:crypto';
import { Address, Cell, beginCell, external, storeMessage, type MessageRelaxed } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { SendMode, type WalletContractV5R1 } from '@ton/ton';

type OutActionWalletV5 = Parameters<WalletContractV5R1['createRequest']>[0]['actions'][number];
import { uninitializedAccount } from '../../src/chain/devnet/genesis.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { DevnetWallet, type DevnetWalletKind } from '../../src/chain/devnet/wallets.ts';
import type { ActionTraceNode, JettonPreviewFacts, NftItemFacts, TraceFacts } from '../../src/actions/trace-input.ts';
import type { AccountAddressJson } from '../../src/actions/present/context.ts';
import { implementsInterface } from '../../src/actions/interfaces.ts';
import { traceFromSandbox } from './sandbox-trace.ts';

export const GRAM = 1_000_000_000n;
export const UTIME = 1_751_461_310;

/** A sandbox chain with wallets that sign their own messages; each send gives the trace it caused. */
export class TestNet {
    readonly facts = {
        jettonWallets: new Map<string, { master: string; owner: string }>(),
        jettons: new Map<string, JettonPreviewFacts>(),
        nftItems: new Map<string, NftItemFacts>(),
    } satisfies TraceFacts;
    /** interfaces by code hash for contracts the known-code table does not hold */
    readonly extraCode = new Map<string, string[]>();
    private readonly interfacesSeen = new Map<string, string[]>();

    private constructor(readonly chain: Blockchain) {}

    static async create(): Promise<TestNet> {
        const chain = await Blockchain.create();
        chain.now = UTIME;
        return new TestNet(chain);
    }

    /** A wallet with `balance`; deployed unless `deployed` is false (its first send deploys it). */
    async wallet(kind: DevnetWalletKind, label: string, balance = 100n * GRAM, deployed = true): Promise<DevnetWallet> {
        const wallet = new DevnetWallet(kind, keyPairFromSeed(createHash('sha256').update(`actions ${label}`).digest()));
        if (deployed) {
            await this.chain.setShardAccount(wallet.address, createShardAccount({
                address: wallet.address, code: wallet.init.code!, data: wallet.init.data!, balance, workchain: 0,
            }));
        } else {
            await this.chain.setShardAccount(wallet.address, uninitializedAccount(wallet, balance, UTIME));
        }
        return wallet;
    }

    async seqno(wallet: DevnetWallet): Promise<number> {
        const state = (await this.chain.getContract(wallet.address)).accountState;
        if (state?.type !== 'active') return 0;
        return (await this.chain.runGetMethod(wallet.address, 'seqno')).stackReader.readNumber();
    }

    /** `wallet` signs and sends `messages`; the trace of the external message. */
    async send(wallet: DevnetWallet, messages: MessageRelaxed[], sendMode = SendMode.PAY_GAS_SEPARATELY): Promise<ActionTraceNode> {
        const message = await wallet.transfer(await this.seqno(wallet), UTIME + 600, messages, sendMode);
        return this.deliver(message);
    }

    /** A v5r1 wallet's signed request with extended actions (extensions, signature switch). */
    async sendV5Actions(wallet: DevnetWallet, actions: OutActionWalletV5[]): Promise<ActionTraceNode> {
        const contract = wallet.contract as WalletContractV5R1;
        const body = contract.createRequest({ seqno: await this.seqno(wallet), secretKey: wallet.keys.secretKey, actions, timeout: UTIME + 600 }) as unknown as Cell;
        return this.deliver(beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell());
    }

    async deliver(message: Cell): Promise<ActionTraceNode> {
        const result = await this.chain.sendMessage(message);
        const root = await traceFromSandbox(this.chain, result.transactions, this.extraCode);
        const remember = (n: ActionTraceNode) => {
            this.interfacesSeen.set(n.transaction.account, n.interfaces);
            n.children.forEach(remember);
        };
        remember(root);
        return root;
    }

    /** AccountAddress JSON for the engine's presenters. */
    readonly accounts = (raw: string): AccountAddressJson => ({
        address: raw,
        is_scam: false,
        is_wallet: implementsInterface(this.interfacesSeen.get(raw) ?? [], 'wallet'),
    });

    addJetton(master: Address, preview: Omit<JettonPreviewFacts, 'address'>): void {
        this.facts.jettons.set(master.toRawString(), { address: master.toRawString(), ...preview });
    }

    addJettonWallet(wallet: Address, master: Address, owner: Address): void {
        this.facts.jettonWallets.set(wallet.toRawString(), { master: master.toRawString(), owner: owner.toRawString() });
    }
}

/** Every transaction of a trace, pre-order. */
export function flatten(root: ActionTraceNode): ActionTraceNode[] {
    return [root, ...root.children.flatMap(flatten)];
}
