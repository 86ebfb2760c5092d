import { EventEmitter, once } from 'node:events';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Address, Cell, internal, loadMessage, type ShardAccount } from '@ton/core';
import { EmulationError, type BlockchainTransaction } from '@ton/sandbox';
import type { AccountStateRecord, BlockIdExt, BlockRecord, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import { MessageRejectedError, type MessageSink } from '../message-sink.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { exitCodeDescription } from '../../ton/exit-codes.ts';
import { interfacesByCodeHash } from '../../ton/interfaces/known-code.ts';
import { InputFormatError, parseMessageCell } from '../../ton/input.ts';
import { MAX_TVM_MESSAGE_DEPTH, TvmFault } from '../../ton/tvm-executor.ts';
import { extraCurrencyAmounts } from '../../ton/extra-currencies.ts';
import { encodeLibraryField, librariesDictionary, publicLibrariesOf } from '../../ton/libraries.ts';
import { ChainLog, type PersistedAccount } from './chain-log.ts';
import { sealBlock } from './block-builder.ts';
import { genesisWallets, newGenesis, uninitializedAccount, type GenesisSpec, type GenesisWallet } from './genesis.ts';
import { buildManifest, type DevnetManifest } from './manifest.ts';
import { SandboxChain, accountOf } from './sandbox-chain.ts';
import { SEED_STEPS, walletSeqno, walletsByName } from './seed.ts';

export interface DevnetOptions {
    dataDir: string;
    blockIntervalMs: number;
    faucetCap: bigint;
    /** Where the API serves the devnet's metadata documents; fixed into a new chain's genesis. */
    metadataBaseUrl?: string;
}

/** Chain counters saved with every production step. */
interface ChainHeads {
    lt: string;
    utime: number;
    lastMaster: BlockIdExt | null;
    lastShard: BlockIdExt | null;
    seedStep: number;
}

/** A seed step committed: its number (1-based) of `total`, what it did, and the chain log position of its block. */
export interface SeedProgress {
    step: number;
    total: number;
    label: string;
    cursor: string;
}

/** An executed external message: its hash, the trace it started, and the chain log position of its block. */
export interface SubmittedMessage {
    messageHash: string;
    traceId: string;
    cursor: string;
}

interface Job {
    /** The external message to execute; null: nothing to send (a seed step that does not apply to this chain). */
    build: (utime: number) => Promise<Cell | null>;
    done: (outcome: SubmittedMessage | Error) => void;
}

/** The emulator failed outright instead of producing a transaction (known trigger: sending more of an extra currency than the account holds). */
const EMULATOR_FAILED = 'the TVM emulator failed on the message instead of producing a transaction '
    + '(it does so on a transfer of more of an extra currency than the sender holds, which a real chain fails in the action phase)';

/** Room between blocks so an empty block still moves logical time forward. */
const LT_PER_BLOCK = 1_000_000n;
const MAINNET_GLOBAL_ID = -239;

/**
 * An in-process TON chain on @ton/sandbox's real TVM. Every interval it executes the external
 * messages submitted since the last block (each with its whole cascade of internal messages),
 * seals one basechain block (shard 8000000000000000) and one masterchain block that commits it,
 * and appends both to its chain log together with the accounts they changed. It is a ChainSource
 * like any other: the indexer reads its blocks from the log.
 */
export class DevnetSource implements ChainSource, MessageSink {
    readonly name = 'devnet';
    readonly live = true;
    readonly faucetCap: bigint;

    private readonly log: ChainLog;
    private readonly events = new EventEmitter();
    private chain!: SandboxChain;
    private genesis!: GenesisSpec;
    private wallets: GenesisWallet[] = [];
    private heads!: ChainHeads;
    private jobs: Job[] = [];
    private timer: NodeJS.Timeout | null = null;
    private producing: Promise<void> | null = null;
    private stopped = false;
    /** The first masterchain block of every run is a key block carrying the config, so the index always has the one in force. */
    private configAnnounced = false;
    /** Public libraries of the chain by the masterchain account publishing them (what the TVM resolves library cells with). */
    private readonly publishedLibraries = new Map<string, Map<string, Cell>>();

    constructor(private readonly options: DevnetOptions) {
        this.faucetCap = options.faucetCap;
        this.log = new ChainLog(join(options.dataDir, 'devnet', 'chain.sqlite'));
        this.events.setMaxListeners(0);
    }

    async start(): Promise<void> {
        this.chain = await SandboxChain.start();
        this.chain.onCascadeCut = (fault, made) => this.events.emit('warning',
            `${fault.message}; a message's cascade stopped after ${made} transaction(s), which stand, and the rest of it was dropped`);
        const genesis = this.log.meta<GenesisSpec>('genesis');
        if (genesis) await this.restore(genesis);
        else await this.createGenesis();
        writeFileSync(join(this.options.dataDir, 'devnet.json'), `${JSON.stringify(this.manifest(), null, 2)}\n`);
        this.schedule();
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.events.emit('produced');
        await this.producing;
        for (const job of this.jobs.splice(0)) job.done(new Error('the devnet is shutting down'));
        this.log.close();
    }

    manifest(): DevnetManifest {
        return buildManifest(this.genesis, this.wallets);
    }

    async head(): Promise<SourceHead | null> {
        const last = this.heads?.lastMaster;
        return last ? { workchain: last.workchain, shard: last.shard, seqno: last.seqno, utime: this.heads.utime } : null;
    }

    async *blocksAfter(cursor: string | null, signal: AbortSignal): AsyncIterable<SourceItem> {
        let seq = cursor === null ? 0 : Number(cursor);
        while (!signal.aborted) {
            const batch = this.log.blocksAfter(seq, 64);
            for (const item of batch) {
                seq = item.seq;
                yield { cursor: String(item.seq), block: item.block };
            }
            if (batch.length > 0) continue;
            if (this.stopped) return;
            await once(this.events, 'produced', { signal }).catch(() => undefined);
        }
    }

    sendExternalMessage(message: Cell): Promise<SubmittedMessage> {
        // Refused here, before it waits for a block: a deeper message would overflow the TVM's stack (see TVM_LIMITS).
        if (message.depth() > MAX_TVM_MESSAGE_DEPTH) {
            throw new InputFormatError(`boc is ${message.depth()} cells deep; the devnet runs messages at most ${MAX_TVM_MESSAGE_DEPTH} cells deep `
                + '(its TVM, compiled to WASM, overflows its stack on deeper ones; the network itself takes up to 512)');
        }
        const parsed = parseMessageCell(message);
        if (parsed.info.type !== 'external-in') throw new InputFormatError(`boc is an ${parsed.info.type} message; only external-in messages can be sent`);
        return this.submit(async () => message);
    }

    async faucet(to: Address, amount: bigint) {
        const faucet = this.wallets.find(w => w.name === 'faucet')!.wallet;
        const sent = await this.submit(async utime => faucet.transfer(await walletSeqno(this.chain, faucet), utime + 60, [
            internal({ to, value: amount, bounce: false }),
        ]));
        return { address: formatRawAddress(to), amount, messageHash: sent.messageHash, traceId: sent.traceId, cursor: sent.cursor };
    }

    /** Resolves with the cursor of the block that executed the message, so callers can wait for the index. */
    submit(build: (utime: number) => Promise<Cell>): Promise<SubmittedMessage> {
        if (this.stopped) return Promise.reject(new Error('the devnet is shutting down'));
        return new Promise((resolve, reject) => {
            this.jobs.push({ build, done: outcome => (outcome instanceof Error ? reject(outcome) : resolve(outcome)) });
        });
    }

    /** Something the chain did differently from a real one (it keeps going). */
    onWarning(listener: (message: string) => void): void {
        this.events.on('warning', listener);
    }

    /** A block could not be produced (the chain keeps going with the next one). */
    onFailure(listener: (error: Error) => void): void {
        this.events.on('failure', listener);
    }

    /** Called after each seed step's block is committed (a new chain runs one step per block). */
    onSeedProgress(listener: (progress: SeedProgress) => void): void {
        this.events.on('seeded', listener);
    }

    /** True once every seed step has been produced (a restored chain may be seeded already). */
    get seeded(): boolean {
        return this.heads.seedStep >= SEED_STEPS.length;
    }

    /** Resolves after the next block is committed (tests and tools use it to step the chain). */
    nextBlock(): Promise<void> {
        return once(this.events, 'produced').then(() => undefined);
    }

    private schedule(): void {
        if (this.stopped) return;
        this.timer = setTimeout(() => {
            this.producing = this.produceBlock()
                .catch(error => {
                    this.events.emit('failure', error);
                })
                .finally(() => {
                    this.producing = null;
                    this.schedule();
                });
        }, this.options.blockIntervalMs);
    }

    private async createGenesis(): Promise<void> {
        const utime = Math.floor(Date.now() / 1000);
        this.genesis = newGenesis(utime, MAINNET_GLOBAL_ID, this.options.metadataBaseUrl);
        this.wallets = genesisWallets(this.genesis);
        this.chain.now = utime;
        const accounts: PersistedAccount[] = [];
        for (const w of this.wallets) {
            const contract = await this.chain.getContract(w.wallet.address);
            contract.account = uninitializedAccount(w.wallet, w.balance, utime, w.extra);
            accounts.push(await this.chain.persistedAccount(formatRawAddress(w.wallet.address)));
        }
        const { master, basechain } = await this.zerostates(utime, accounts.map(a => a.address));
        this.heads = { lt: this.chain.lt.toString(), utime, lastMaster: master.id, lastShard: basechain, seedStep: 0 };
        this.log.commit([master], accounts, { genesis: this.genesis, heads: this.heads });
    }

    /**
     * The chain starts as a real one does: from a masterchain zerostate (seqno 0, a key block with the
     * config and the masterchain's genesis accounts) that names the basechain's zerostate as its shard.
     * Basechain accounts live in that basechain zerostate, which is a state and not a block (as on
     * mainnet): it is referenced, as the first basechain block's parent, but not indexed.
     */
    private async zerostates(utime: number, genesisAccounts: string[]): Promise<{ master: BlockRecord; basechain: BlockIdExt }> {
        const lt = this.chain.lt;
        const empty = { utime, startLt: lt, endLt: lt, parents: [], shardBlocks: [], transactions: [] };
        const basechain = sealBlock({ ...empty, workchain: 0, seqno: 0, accountStates: [] }).id;
        const masterAccounts = genesisAccounts.filter(address => address.startsWith('-1:'));
        const master = sealBlock({
            ...empty, workchain: -1, seqno: 0, shardBlocks: [basechain],
            accountStates: await Promise.all(masterAccounts.map(a => this.accountState(a))),
            config: this.chain.config.toBoc(),
        });
        return { master, basechain };
    }

    private async restore(genesis: GenesisSpec): Promise<void> {
        this.genesis = genesis;
        this.wallets = genesisWallets(genesis);
        for (const account of this.log.accounts()) await this.chain.restoreAccount(account);
        await this.refreshLibraries(this.log.accounts().map(account => account.address));
        this.heads = this.log.meta<ChainHeads>('heads')!;
        this.chain.setLogicalTime(BigInt(this.heads.lt));
        this.chain.now = this.heads.utime;
    }

    private async produceBlock(): Promise<void> {
        const utime = Math.max(this.heads.utime, Math.floor(Date.now() / 1000));
        this.chain.now = utime;
        const startLt = this.chain.lt;

        const jobs = this.jobs.splice(0);
        const seedStep = this.heads.seedStep;
        if (seedStep < SEED_STEPS.length) {
            jobs.unshift({ build: u => SEED_STEPS[seedStep].message(walletsByName(this.wallets), this.chain, u, this.genesis.metadataBaseUrl), done: () => undefined });
        }
        const outcomes: Array<{ job: Job; result: { messageHash: string; traceId: string } | Error }> = [];
        for (const job of jobs) outcomes.push({ job, result: await this.execute(job, utime) });

        const executed = this.chain.drainTransactions();
        const endLt = this.chain.lt + LT_PER_BLOCK;
        this.chain.setLogicalTime(endLt);

        const blocks = await this.sealBlocks(executed, utime, startLt, endLt);
        const touched = [...new Set(executed.map(accountOf))];
        await this.refreshLibraries(touched);
        const accounts = await Promise.all(touched.map(a => this.chain.persistedAccount(a)));
        const heads: ChainHeads = {
            lt: endLt.toString(),
            utime,
            lastShard: blocks[0].id,
            lastMaster: blocks[1].id,
            seedStep: Math.min(SEED_STEPS.length, seedStep + 1),
        };
        const seqs = this.log.commit(blocks, accounts, { heads });
        this.heads = heads;
        this.configAnnounced = true;
        this.events.emit('produced');
        const cursor = String(seqs[seqs.length - 1]);
        if (seedStep < SEED_STEPS.length) this.events.emit('seeded', { step: seedStep + 1, total: SEED_STEPS.length, label: SEED_STEPS[seedStep].label, cursor } satisfies SeedProgress);
        for (const { job, result } of outcomes) job.done(result instanceof Error ? result : { ...result, cursor });
    }

    /** Takes the public libraries of the given masterchain accounts' current states into the chain's. */
    private async refreshLibraries(addresses: string[]): Promise<void> {
        let changed = false;
        for (const address of addresses) {
            if (!address.startsWith('-1:')) continue;
            const state = (await this.chain.getContract(Address.parseRaw(address))).accountState;
            const published = state?.type === 'active' ? publicLibrariesOf(state.state.libraries) : new Map<string, Cell>();
            if (published.size === 0 && !this.publishedLibraries.has(address)) continue;
            if (published.size === 0) this.publishedLibraries.delete(address);
            else this.publishedLibraries.set(address, published);
            changed = true;
        }
        if (!changed) return;
        const all = new Map<string, Cell>();
        for (const libraries of this.publishedLibraries.values()) for (const [hash, root] of libraries) all.set(hash, root);
        this.chain.libs = librariesDictionary(all) ?? undefined;
    }

    private async execute(job: Job, utime: number): Promise<{ messageHash: string; traceId: string } | Error> {
        let message: Cell | null;
        try {
            message = await job.build(utime);
        } catch (error) {
            return error as Error;
        }
        if (message === null) return new Error('nothing to send');
        try {
            const result = await this.chain.sendMessage(message);
            return { messageHash: message.hash().toString('hex'), traceId: result.transactions[0].hash().toString('hex') };
        } catch (error) {
            if (error instanceof EmulationError) {
                const code = error.exitCode;
                const meaning = code !== undefined ? exitCodeDescription(code, await this.interfacesOfDestination(message)) : undefined;
                const reason = code !== undefined ? `exit code ${code}${meaning ? ` (${meaning})` : ''}` : error.error;
                return new MessageRejectedError(`the destination did not accept the external message: ${reason}`);
            }
            // The emulator failed on the message's own transaction (it was replaced, the chain goes on); the sandbox
            // applied nothing of that transaction. A bare number is a C++ exception the emulator does not catch.
            if (error instanceof TvmFault) return new MessageRejectedError(error.cppException ? EMULATOR_FAILED : `the devnet's TVM emulator failed on the message instead of producing a transaction (${error.message})`);
            if (!(error instanceof Error)) return new MessageRejectedError(EMULATOR_FAILED);
            return error as Error;
        }
    }

    private async interfacesOfDestination(message: Cell): Promise<string[]> {
        const info = loadMessage(message.beginParse()).info;
        if (info.type !== 'external-in') return [];
        const state = (await this.chain.getContract(info.dest)).accountState;
        return state?.type === 'active' ? interfacesByCodeHash(state.state.code?.hash().toString('hex')) : [];
    }

    private async sealBlocks(executed: BlockchainTransaction[], utime: number, startLt: bigint, endLt: bigint): Promise<[BlockRecord, BlockRecord]> {
        const inWorkchain = async (workchain: number) => {
            const txs = executed.filter(tx => Number(accountOf(tx).split(':')[0]) === workchain);
            const touched = [...new Set(txs.map(accountOf))];
            return {
                transactions: txs.map(tx => ({ boc: tx.raw.toBoc(), endBalance: this.chain.balanceAfter(tx), hash: tx.hash().toString('hex') })),
                accountStates: await Promise.all(touched.map(a => this.accountState(a))),
            };
        };
        const shard = sealBlock({
            workchain: 0,
            seqno: (this.heads.lastShard?.seqno ?? 0) + 1,
            utime, startLt, endLt,
            parents: this.heads.lastShard ? [this.heads.lastShard] : [],
            masterRef: this.heads.lastMaster ?? undefined,
            shardBlocks: [],
            ...(await inWorkchain(0)),
        });
        const master = sealBlock({
            workchain: -1,
            seqno: (this.heads.lastMaster?.seqno ?? 0) + 1,
            utime, startLt, endLt,
            parents: this.heads.lastMaster ? [this.heads.lastMaster] : [],
            shardBlocks: [shard.id],
            ...(await inWorkchain(-1)),
            config: this.configAnnounced ? undefined : this.chain.config.toBoc(),
        });
        return [shard, master];
    }

    private async accountState(address: string): Promise<AccountStateRecord> {
        const contract = await this.chain.getContract(Address.parseRaw(address));
        return accountStateRecord(address, contract.account);
    }
}

function accountStateRecord(address: string, shardAccount: ShardAccount): AccountStateRecord {
    const account = shardAccount.account;
    const state = account?.storage.state;
    const code = state?.type === 'active' ? state.state.code ?? undefined : undefined;
    const data = state?.type === 'active' ? state.state.data ?? undefined : undefined;
    const libraries = state?.type === 'active' ? encodeLibraryField(state.state.libraries) : undefined;
    return {
        address,
        status: !account ? 'nonexist' : state!.type === 'active' ? 'active' : state!.type === 'frozen' ? 'frozen' : 'uninit',
        balance: account?.storage.balance.coins ?? 0n,
        extraBalance: nonEmpty(extraCurrencyAmounts(account?.storage.balance.other)),
        codeHash: code?.hash().toString('hex'),
        dataHash: data?.hash().toString('hex'),
        code: code?.toBoc(),
        data: data?.toBoc(),
        libraries,
        lastTransLt: shardAccount.lastTransactionLt,
        lastTransHash: shardAccount.lastTransactionHash.toString(16).padStart(64, '0'),
    };
}

function nonEmpty<K, V>(map: Map<K, V>): Map<K, V> | undefined {
    return map.size > 0 ? map : undefined;
}
