import { getHeapStatistics } from 'node:v8';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { Address, Cell, internal, loadCurrencyCollection, loadMessage, storeMessage } from '@ton/core';
import { accountBalanceSlice } from '../../ton/block/shard-accounts.ts';
import type { SourceHead } from '../chain-source.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { amountsOf, ZERO } from '../../ton/currency.ts';
import { Collator, type AccountChange, type CollatorHeads, type ProducedBlock } from './collator.ts';
import { keyPairFromSeed } from './keys.ts';
import { MessageRejectedError } from '../message-sink.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { exitCodeDescription } from '../../ton/exit-codes.ts';
import { interfacesByCodeHash } from '../../ton/interfaces/known-code.ts';
import { TvmFault } from '../../ton/tvm-executor.ts';
import { librariesDictionary, publicLibrariesOf } from '../../ton/libraries.ts';
import { CHAIN_ACCOUNTS_KEPT } from './recent-accounts.ts';
import { DEFAULT_RECENT_ACCOUNTS } from '../../config/defaults.ts';
import { ChainLog, type PersistedAccount } from './chain-log.ts';
import { SqliteFoldStore } from './fold-store.ts';
import { reuseUnchanged } from '../../ton/cells/reuse-unchanged.ts';
import { genesisWallets, newGenesis, uninitializedAccount, type GenesisSpec, type GenesisWallet } from './genesis.ts';
import { buildManifest, type DevnetManifest } from './manifest.ts';
import { MessageNotAccepted, TvmChain, type TickOrTock } from './tvm-chain.ts';
import { SEED_STEPS, walletSeqno, walletsByName } from './seed.ts';
import { devnetStaking, electionsGenesisAccounts, electionsGenesisConfig, TICK_TOCK_ACCOUNTS, type DevnetStaking } from './elections.ts';
import { validatorActions } from './validator-agent.ts';
import { FEE_COLLECTOR_SOURCE } from './contracts/elector.ts';
import { CONFIG_ADDRESS, configParamsDict, parseConfigData } from './contracts/config.ts';
import { cellBuilder } from '../../ton/cells/core-cells.ts';
import { withBasechainShards } from './shard-config.ts';
import { shardHoldsAccount } from '../../ton/block/shard-id.ts';

export interface DevnetOptions {
    dataDir: string;
    blockIntervalMs: number;
    faucetCap: bigint;
    /** Where the API serves the devnet's metadata documents; fixed into a new chain's genesis. */
    metadataBaseUrl?: string;
    /** A validator round's length in seconds for a new chain (p15; default DEFAULT_ROUND_SECONDS); a chain keeps its genesis timings. */
    roundSeconds?: number;
    /** How many validators a new chain has (default 3, one per stake route; the rest stake from their wallets); a chain keeps its genesis set. */
    validators?: number;
    /**
     * About how many accounts the producer keeps in memory (default DEFAULT_RECENT_ACCOUNTS): those
     * used last; the others are in the chain log and loaded back when a message reaches them.
     */
    recentAccounts?: number;
    /** How many basechain shards a new chain has (a power of two, default 1); a chain keeps its own. */
    shards?: number;
}

/** Chain counters saved with every production step. */
interface ChainHeads {
    lt: string;
    utime: number;
    seedStep: number;
    collator: CollatorHeads;
}

/** A seed step committed: its number (1-based) of `total`, what it did, and the chain log position of its block. */
/** A production step: its transactions, the time the collator took to make its two blocks (states, Merkle updates, descriptors, BOCs) and their size. */
export interface StepStats {
    transactions: number;
    buildMs: number;
    bocBytes: number;
    /** The producer thread's V8 heap in use after the step (its share of the process's memory). */
    heapBytes: number;
    /** The producer thread's V8 heap as committed after the step (what its heap takes of the process's memory). */
    heapCommittedBytes: number;
    /** Memory outside the producer's heap that its objects hold (buffers, the TVM's WebAssembly memory). */
    externalBytes: number;
}

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
const MASTERCHAIN_CONFIG_KEY = 'config';

/**
 * The devnet's block producer, a TON chain on @ton/sandbox's real TVM (it runs in its own thread,
 * see producer-thread.ts). Every interval it executes the external messages submitted since the
 * last block (each with its whole cascade of internal messages), has the collator make a
 * basechain block (shard 8000000000000000) and the masterchain block committing it, and appends
 * both to its chain log with the accounts they changed. DevnetSource reads the blocks from the log.
 */
export class DevnetProducer {

    private readonly log: ChainLog;
    /** The accounts dictionaries' folded forks while they are cold (a scratch file, emptied at start). */
    private readonly folds: SqliteFoldStore;
    private readonly events = new EventEmitter();
    private chain!: TvmChain;
    private genesis!: GenesisSpec;
    private wallets: GenesisWallet[] = [];
    private heads!: ChainHeads;
    private jobs: Job[] = [];
    private timer: NodeJS.Timeout | null = null;
    private producing: Promise<void> | null = null;
    private stopped = false;
    private paused = false;
    private readonly collator: Collator;
    /** The public key the devnet signs its blocks as (`created_by`). */
    private producerKey!: Buffer;
    /** Public libraries of the chain by the masterchain account publishing them (what the TVM resolves library cells with). */
    private readonly publishedLibraries = new Map<string, Map<string, Cell>>();
    /** The validator economy (elector, config contract, pools); null on a chain created without one. */
    private staking: DevnetStaking | null = null;
    /** The ShardAccount cells of the masterchain's accounts as the last step that changed each left them. */
    private readonly masterchainStates = new Map<string, Cell>();

    constructor(private readonly options: DevnetOptions) {
        this.log = new ChainLog(join(options.dataDir, 'devnet', 'chain.sqlite'));
        this.folds = new SqliteFoldStore(join(options.dataDir, 'devnet', 'folds.sqlite'));
        this.events.setMaxListeners(0);
        this.collator = new Collator({ accountsUnder: (workchain, prefix, bits) => this.accountsUnder(workchain, prefix, bits), recentAccounts: this.recentAccounts, folds: this.folds });
    }

    private get recentAccounts(): number {
        return this.options.recentAccounts ?? DEFAULT_RECENT_ACCOUNTS;
    }

    /** The existing accounts of a workchain as last committed whose ids start with the top `bits` bits of `prefix`, in id order. */
    private *accountsUnder(workchain: number, prefix: bigint, bits: number): Generator<AccountChange> {
        const free = BigInt(256 - bits);
        const from = (prefix >> free) << free;
        const to = from | ((1n << free) - 1n);
        for (const saved of this.log.accountsBetween(workchain, hex256(from), hex256(to))) {
            const change = this.accountChange(saved);
            if (change.shardAccount) yield change;
        }
    }

    async start(): Promise<void> {
        this.chain = await TvmChain.start({ loadAccount: address => this.log.account(address) });
        this.chain.onCascadeCut = (error, made) => this.events.emit('warning',
            `${error.message}; a message's cascade stopped after ${made} transaction(s), which stand, and the rest of it was dropped`);
        // A message between two shards of the basechain waits in its sender's queue until the next step.
        this.chain.deliversNow = (from, to) => !from.startsWith('0:') || !to.startsWith('0:') || this.sameShard(from, to);
        const genesis = this.log.meta<GenesisSpec>('genesis');
        if (genesis) await this.restore(genesis);
        else await this.createGenesis();
        writeFileSync(join(this.options.dataDir, 'devnet.json'), `${JSON.stringify(this.manifest(), null, 2)}\n`);
        // The validator economy (validators with their keys, pools, nominators) beside it; the API's manifest keeps its documented shape.
        const elections = buildManifest(this.genesis, this.wallets, { elections: true }).elections;
        if (elections) writeFileSync(join(this.options.dataDir, 'devnet-elections.json'), `${JSON.stringify(elections, null, 2)}\n`);
        this.schedule();
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.events.emit('produced');
        await this.producing;
        for (const job of this.jobs.splice(0)) job.done(new Error('the devnet is shutting down'));
        this.log.close();
        this.folds.close();
    }

    manifest(): DevnetManifest {
        return buildManifest(this.genesis, this.wallets);
    }

    head(): SourceHead | null {
        const last = this.heads?.collator.masterchain.last;
        return last ? { workchain: -1, shard: '8000000000000000', seqno: last.seqno, utime: this.heads.utime } : null;
    }

    /** Executes a validated external message in the next block; resolves once that block is committed. */
    sendExternalMessage(message: Cell): Promise<SubmittedMessage> {
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
    private submit(build: (utime: number) => Promise<Cell>): Promise<SubmittedMessage> {
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

    /** Called after every committed step with the chain log position of its last block and what making its blocks cost. */
    onProduced(listener: (lastSeq: number, stats: StepStats) => void): void {
        this.events.on('produced', (seq?: number, stats?: StepStats) => {
            if (seq !== undefined) listener(seq, stats!);
        });
    }

    /** No more blocks until resume(); resolves once the step in progress (if any) is committed. */
    async pause(): Promise<void> {
        this.paused = true;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        await this.producing;
    }

    resume(): void {
        if (!this.paused) return;
        this.paused = false;
        if (!this.producing) this.schedule();
    }

    private schedule(): void {
        if (this.stopped || this.paused) return;
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
        this.genesis = newGenesis(utime, MAINNET_GLOBAL_ID, this.options.metadataBaseUrl, this.options.roundSeconds, this.options.validators);
        const shards = this.options.shards ?? 1;
        if (shards > 1) {
            // The chain starts unsplit and splits into its shards in its first blocks, as TON's masterchain splits a workchain below min_split.
            this.chain.setConfig(withBasechainShards(this.chain.config, shards));
            this.genesis.shards = shards;
        }
        this.wallets = genesisWallets(this.genesis);
        this.producerKey = blockProducerKey(this.genesis);
        this.staking = devnetStaking(walletsByName(this.wallets));
        this.chain.now = utime;
        const accounts: PersistedAccount[] = [];
        for (const w of this.wallets) {
            this.chain.setShardAccount(w.wallet.address, uninitializedAccount(w.wallet, w.balance, utime, w.extra));
            accounts.push(this.chain.persistedAccount(formatRawAddress(w.wallet.address)));
        }
        if (this.staking && this.genesis.elections) {
            // The config the chain starts with is the config contract's: both hold the same cell.
            const config = electionsGenesisConfig(this.chain.config, this.staking, utime, this.genesis.elections);
            this.chain.setConfig(config);
            for (const { address, account } of electionsGenesisAccounts(config, this.staking)) {
                this.chain.setShardAccount(address, account);
                accounts.push(this.chain.persistedAccount(formatRawAddress(address)));
            }
        }
        // The chain starts as a real one does: from zerostates (states, not blocks) of the masterchain,
        // a key state with the config, and of the basechain, which the first blocks name as parents.
        const { master, basechain } = this.collator.genesis({
            utime, accounts: accounts.map(a => this.accountChange(a)), config: this.config, libraries: this.libraryMap(),
        });
        this.log.saveZerostates([master, basechain].map(z => ({ workchain: z.id.workchain, rootHash: z.id.rootHash, fileHash: z.id.fileHash, boc: z.stateBoc })));
        this.heads = { lt: this.chain.lt.toString(), utime, seedStep: 0, collator: this.collator.heads() };
        this.log.commitGenesis(accounts, { genesis: this.genesis, heads: this.heads, [MASTERCHAIN_CONFIG_KEY]: this.chain.configBase64 });
    }

    private async restore(genesis: GenesisSpec): Promise<void> {
        const kept = genesis.shards ?? 1;
        if (this.options.shards !== undefined && this.options.shards !== kept) {
            throw new Error(`this devnet was created with --shards ${kept}, and a chain keeps its shards; start it with --shards ${kept} `
                + `(or without it), or use a new --data-dir for a chain of ${this.options.shards} shard(s)`);
        }
        this.genesis = genesis;
        this.wallets = genesisWallets(genesis);
        this.producerKey = blockProducerKey(genesis);
        this.staking = genesis.elections ? devnetStaking(walletsByName(this.wallets)) : null;
        // Accounts are loaded into the chain when used; the masterchain's public libraries are needed before.
        const masterchain = [...this.log.accountsOf(-1)].map(account => account.address);
        await this.refreshLibraries(masterchain);
        this.heads = this.log.meta<ChainHeads>('heads')!;
        this.chain.setLogicalTime(BigInt(this.heads.lt));
        this.chain.now = this.heads.utime;
        const config = Cell.fromBase64(this.log.meta<string>(MASTERCHAIN_CONFIG_KEY)!);
        // The TVM runs on the config in force (the config contract's, on a chain with one).
        if (!config.hash().equals(this.config.hash())) this.chain.setConfig(config);
        const saved = { of: (workchain: number) => this.savedAccounts(workchain), count: (workchain: number) => this.log.accountCount(workchain) };
        this.collator.restore(saved, this.heads.collator, config, this.libraryMap(), this.log.masterBlocksBefore(this.heads.collator.masterchain.last.seqno));
    }

    /** Every saved account of a workchain in id order, as the collator takes it. */
    private *savedAccounts(workchain: number): Generator<AccountChange> {
        for (const account of this.log.accountsOf(workchain)) yield this.accountChange(account);
    }

    private get config(): Cell {
        return this.chain.config;
    }

    /** An account's state as the collator takes it: the ShardAccount cell the TVM wrote, or null once the account no longer exists. */
    private accountChange(persisted: PersistedAccount): AccountChange {
        const address = persisted.address;
        const shardAccount = readBoc(persisted.shardAccount)[0];
        const balance = accountBalanceSlice(shardAccount.refs[0]);
        const [workchain, id] = address.split(':');
        return {
            workchain: Number(workchain),
            id: BigInt(`0x${id}`),
            shardAccount: balance ? shardAccount : null,
            balance: balance ? amountsOf(loadCurrencyCollection(balance)) : ZERO,
        };
    }

    /**
     * An account as a step left it. The masterchain's accounts (the elector and the config contract
     * change every block) keep the cells their state had before wherever it did not change: the
     * collator then hashes only what changed, and the step holds one copy of the rest.
     */
    private steppedAccount(persisted: PersistedAccount): AccountChange {
        const change = this.accountChange(persisted);
        if (change.workchain !== -1) return change;
        const before = this.masterchainStates.get(persisted.address);
        if (before && change.shardAccount) change.shardAccount = reuseUnchanged(change.shardAccount, before);
        if (change.shardAccount) this.masterchainStates.set(persisted.address, change.shardAccount);
        else this.masterchainStates.delete(persisted.address);
        return change;
    }

    /** The masterchain's public libraries with the accounts publishing each. */
    private libraryMap(): Map<string, { root: Cell; publishers: string[] }> {
        const libraries = new Map<string, { root: Cell; publishers: string[] }>();
        for (const [publisher, published] of this.publishedLibraries) {
            for (const [hash, root] of published) {
                const entry = libraries.get(hash) ?? { root, publishers: [] };
                entry.publishers.push(publisher.split(':')[1]);
                libraries.set(hash, entry);
            }
        }
        return libraries;
    }

    private sameShard(from: string, to: string): boolean {
        return this.collator.shardOf(BigInt(`0x${from.slice(2)}`)) === this.collator.shardOf(BigInt(`0x${to.slice(2)}`));
    }

    private async produceBlock(): Promise<void> {
        this.collator.prepareStep();
        const utime = Math.max(this.heads.utime, Math.floor(Date.now() / 1000));
        this.chain.now = utime;
        const startLt = this.chain.lt;
        const randSeed = randomBytes(32);
        this.chain.random = randSeed;

        // As TON's collator: the special accounts' tick transactions first, then the special message
        // carrying the recovered fees, then the block's messages, and the tock transactions last.
        let recoverCreateMsg: { hash: string; value: bigint } | undefined;
        if (this.staking) {
            await this.tickTock('tick');
            recoverCreateMsg = await this.recoverFees(utime, startLt);
        }

        // What other shards queued for the basechain's shards in the last steps, first (as TON's collators import before the rest).
        for (const { message, destination } of this.collator.queuedMessages()) {
            try {
                await this.chain.sendMessage(message);
            } catch (error) {
                this.events.emit('warning', `a message queued for ${destination} was not delivered in this step: ${(error as Error).message}`);
            }
        }

        const jobs = this.jobs.splice(0);
        const seedStep = this.heads.seedStep;
        if (this.staking) {
            for (const { wallet, messages } of await validatorActions(this.chain, this.staking, utime).catch(() => [])) {
                jobs.unshift({ build: async u => wallet.transfer(await walletSeqno(this.chain, wallet), u + 60, messages), done: () => undefined });
            }
        }
        if (seedStep < SEED_STEPS.length) {
            jobs.unshift({ build: u => SEED_STEPS[seedStep].message(walletsByName(this.wallets), this.chain, u, this.genesis.metadataBaseUrl), done: () => undefined });
        }
        const outcomes: Array<{ job: Job; result: { messageHash: string; traceId: string } | Error }> = [];
        for (const job of jobs) outcomes.push({ job, result: await this.execute(job, utime) });
        if (this.staking) {
            await this.tickTock('tock');
            await this.followConfigContract();
        }

        const executed = this.chain.drainTransactions();
        const endLt = this.chain.lt + LT_PER_BLOCK;
        this.chain.setLogicalTime(endLt);

        const touched = [...new Set(executed.map(tx => tx.account))];
        await this.refreshLibraries(touched);
        const accounts = touched.map(a => this.chain.persistedAccount(a));
        const building = performance.now();
        const blocks = this.collator.step({
            utime, startLt, endLt, randSeed, createdBy: this.producerKey,
            transactions: executed,
            accounts: accounts.map(a => this.steppedAccount(a)),
            config: this.config,
            libraries: this.libraryMap(),
            recoverCreateMsg,
        });
        const built = performance.now();
        const heads: ChainHeads = {
            lt: endLt.toString(),
            utime,
            seedStep: Math.min(SEED_STEPS.length, seedStep + 1),
            collator: this.collator.heads(),
        };
        const meta: Record<string, unknown> = { heads };
        if (blocks[blocks.length - 1].isKeyBlock) meta[MASTERCHAIN_CONFIG_KEY] = this.chain.configBase64;
        // Each block with the accounts of its shard (the masterchain's block last).
        const inBlock = (block: ProducedBlock) => accounts.filter(a => a.address.startsWith(`${block.id.workchain}:`)
            && (block.id.workchain !== 0 || shardHoldsAccount(BigInt(`0x${block.id.shard}`), BigInt(`0x${a.address.slice(2)}`))));
        const seqs = this.log.commit(blocks, blocks.map(inBlock), meta);
        this.heads = heads;
        // What the step changed is in the chain log now: accounts not used lately leave the chain's memory.
        this.chain.keepRecent(Math.min(this.recentAccounts, CHAIN_ACCOUNTS_KEPT));
        const heap = getHeapStatistics();
        const stats: StepStats = {
            transactions: executed.length,
            buildMs: built - building,
            bocBytes: blocks.reduce((n, b) => n + b.boc.length, 0),
            heapBytes: heap.used_heap_size,
            heapCommittedBytes: heap.total_heap_size,
            externalBytes: heap.external_memory,
        };
        this.events.emit('produced', seqs[seqs.length - 1], stats);
        const cursor = String(seqs[seqs.length - 1]);
        if (seedStep < SEED_STEPS.length) this.events.emit('seeded', { step: seedStep + 1, total: SEED_STEPS.length, label: SEED_STEPS[seedStep].label, cursor } satisfies SeedProgress);
        for (const { job, result } of outcomes) job.done(result instanceof Error ? result : { ...result, cursor });
    }

    /** The tick (or tock) transactions of the special accounts, in address order (elector, then config contract). */
    private async tickTock(which: TickOrTock): Promise<void> {
        for (const address of TICK_TOCK_ACCOUNTS) {
            try {
                await this.chain.runTickTock(address, which);
            } catch (error) {
                this.events.emit('warning', `the ${which} transaction of ${formatRawAddress(address)} failed: ${(error as Error).message}`);
            }
        }
    }

    /**
     * The collator's special message: what the block recovers (the validators' fees and the block's
     * creation fee) goes from -1:000…000 to the fee collector (p3, else the elector of p1), which
     * credits it to the active round's bonuses.
     */
    private async recoverFees(utime: number, startLt: bigint): Promise<{ hash: string; value: bigint } | undefined> {
        const value = this.collator.recoverable();
        const params = configParamsDict(this.config);
        const collector = params.get(3) ?? params.get(1);
        if (value < 1_000_000_000n || !collector) return undefined;
        const dest = new Address(-1, collector.beginParse().loadBuffer(32));
        const message = cellBuilder().store(storeMessage({
            info: {
                type: 'internal', ihrDisabled: true, bounce: true, bounced: false, src: FEE_COLLECTOR_SOURCE, dest,
                value: { coins: value }, ihrFee: 0n, forwardFee: 0n, createdLt: startLt, createdAt: utime,
            },
            body: cellBuilder().endCell(),
        })).endCell();
        try {
            await this.chain.sendMessage(message);
        } catch (error) {
            this.events.emit('warning', `the fee collector did not take the recovered fees: ${(error as Error).message}`);
            return undefined;
        }
        return { hash: message.hash().toString('hex'), value };
    }

    /** The TVM's config follows the config contract's cfg_dict (as TON's collator copies it into the state); a change makes the block a key block. */
    private async followConfigContract(): Promise<void> {
        const account = this.chain.shardAccount(CONFIG_ADDRESS).account?.storage.state;
        if (account?.type !== 'active' || !account.state.data) return;
        const configDict = parseConfigData(account.state.data).configDict;
        if (!configDict.hash().equals(this.config.hash())) this.chain.setConfig(configDict);
    }

    /** Takes the public libraries of the given masterchain accounts' current states into the chain's. */
    private async refreshLibraries(addresses: string[]): Promise<void> {
        let changed = false;
        for (const address of addresses) {
            if (!address.startsWith('-1:')) continue;
            const state = this.chain.shardAccount(Address.parseRaw(address)).account?.storage.state;
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
            const made = await this.chain.sendMessage(message);
            return { messageHash: message.hash().toString('hex'), traceId: made[0].cell.hash().toString('hex') };
        } catch (error) {
            if (error instanceof MessageNotAccepted) {
                const code = error.exitCode;
                const meaning = code !== undefined ? exitCodeDescription(code, await this.interfacesOfDestination(message)) : undefined;
                const reason = code !== undefined ? `exit code ${code}${meaning ? ` (${meaning})` : ''}` : error.reason;
                return new MessageRejectedError(`the destination did not accept the external message: ${reason}`);
            }
            // The emulator failed on the message's own transaction (it was replaced, the chain goes on); nothing
            // of that transaction was applied. A bare number is a C++ exception the emulator does not catch.
            if (error instanceof TvmFault) return new MessageRejectedError(error.cppException ? EMULATOR_FAILED : `the devnet's TVM emulator failed on the message instead of producing a transaction (${error.message})`);
            if (!(error instanceof Error)) return new MessageRejectedError(EMULATOR_FAILED);
            return error as Error;
        }
    }

    private async interfacesOfDestination(message: Cell): Promise<string[]> {
        const info = loadMessage(message.beginParse()).info;
        if (info.type !== 'external-in') return [];
        const state = this.chain.shardAccount(info.dest).account?.storage.state;
        return state?.type === 'active' ? interfacesByCodeHash(state.state.code?.hash().toString('hex')) : [];
    }
}

/** The key the devnet signs its blocks as: derived from the faucet's seed, so it is fixed for a chain. */
function blockProducerKey(genesis: GenesisSpec): Buffer {
    const seed = createHash('sha256').update('native-explorer devnet block producer').update(genesis.wallets[0].seed).digest();
    return keyPairFromSeed(seed).publicKey;
}

function hex256(value: bigint): string {
    return value.toString(16).padStart(64, '0');
}
