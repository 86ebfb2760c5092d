import { Address, Cell } from '@ton/core';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import { detectInterfaces, jettonWalletAddressOf, type DetectAccount, type DetectedContract } from '../ton/interfaces/detect.ts';
import { DetectionCache } from '../ton/interfaces/detection-cache.ts';
import { GetMethodRunner } from '../ton/interfaces/get-method-runner.ts';
import { knownInterfaces } from '../ton/interfaces/known-code.ts';
import type { IndexDb } from '../store/schema.ts';
import { publicLibraryBocs } from '../store/read/libraries.ts';
import { librariesDictionary, publicLibrariesInField } from '../ton/libraries.ts';
import { LibraryResolver, type LibraryFetch } from '../ton/library-resolver.ts';
import { BoundedMap } from '../lru.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';

export interface InspectedAccount {
    detected: DetectedContract;
    /** For jetton wallets: whether the master's get_wallet_address(owner) gives this address back. */
    verifiedJettonWallet: boolean;
}

/**
 * Reads what accounts are (interfaces, wallet keys, jetton and NFT data) by running their
 * get-methods on the real TVM, once per block for the accounts the block changed. Runs before the
 * block's database transaction: it only reads.
 */
export class AccountInspector {
    private resolver: LibraryResolver | undefined;
    /**
     * What was detected for an account, by the state it was detected in: an account whose code,
     * data and balance are as they were is not run again (the config contract's state changes
     * every masterchain block by its last transaction only, and running its wallet getters on its
     * large data took a fifth of the indexing thread's time on the devnet).
     */
    private readonly recent = new BoundedMap<string, { key: string; detected: DetectedContract }>(RECENT_ACCOUNTS);
    private readonly codes = new BoundedMap<string, Cell>(RECENT_CODES);

    private constructor(private readonly runner: GetMethodRunner, private readonly cache: DetectionCache, private readonly chainLibraries?: LibraryFetch) {}

    /**
     * `chainLibraries`: where public libraries the index does not hold are asked for (a follower that
     * started mid-chain has not indexed the blocks that published them: getLibraries).
     */
    static async create(options: { chainLibraries?: LibraryFetch } = {}): Promise<AccountInspector> {
        return new AccountInspector(await GetMethodRunner.create(), new DetectionCache(), options.chainLibraries);
    }

    async inspect(db: IndexDb, states: AccountStateRecord[]): Promise<Map<string, InspectedAccount>> {
        const active = new Map<string, AccountStateRecord>();
        for (const state of states) if (state.status === 'active' && state.code && state.data) active.set(state.address, state);
        const accounts = new Map<string, DetectAccount>();
        const accountOf = (state: AccountStateRecord) => {
            let account = accounts.get(state.address);
            if (!account) {
                // The data is parsed only if a get-method or a wallet layout reads it (the elector's, every masterchain block, is not).
                const boc = state.data!;
                let data: Cell | undefined;
                account = {
                    address: Address.parseRaw(state.address), code: this.codeOf(state), balance: state.balance,
                    get data() {
                        data ??= readBoc(boc)[0];
                        return data;
                    },
                };
                accounts.set(state.address, account);
            }
            return account;
        };
        await this.loadLibraries(db, states, [...active.values()].map(state => this.codeOf(state)));
        const result = new Map<string, InspectedAccount>();
        for (const [address, state] of active) {
            const key = unchangedKey(state);
            const kept = this.recent.get(address);
            let detected: DetectedContract;
            if (key !== null && kept?.key === key) {
                detected = kept.detected;
            } else {
                detected = await detectInterfaces(accountOf(state), this.runner, { cache: this.cache });
                // A code whose profile was not kept (its library not available yet) is run again next time, as the profile is.
                if (key !== null && this.cache.has(state.codeHash!)) this.recent.set(address, { key, detected });
                else this.recent.delete(address);
            }
            let verifiedJettonWallet = false;
            if (detected.jettonWallet) {
                const masterState = active.get(detected.jettonWallet.master);
                const master = masterState ? accountOf(masterState) : await this.storedAccount(db, detected.jettonWallet.master);
                verifiedJettonWallet = master !== undefined
                    && await jettonWalletAddressOf(master, Address.parseRaw(detected.jettonWallet.owner), this.runner) === address;
            }
            result.set(address, { detected, verifiedJettonWallet });
        }
        return result;
    }

    /** The code cell of an active state, parsed once for every state with the same code. */
    private codeOf(state: AccountStateRecord): Cell {
        const key = state.codeHash;
        let code = key ? this.codes.get(key) : undefined;
        if (!code) {
            code = readBoc(state.code!)[0];
            if (key) this.codes.set(key, code);
        }
        return code;
    }

    /** Gives the TVM the libraries the codes use: published in this block, or indexed before. */
    private async loadLibraries(db: IndexDb, states: AccountStateRecord[], codes: Cell[]): Promise<void> {
        this.resolver ??= new LibraryResolver(async hashes => {
            const found = await publicLibraryBocs(db, hashes);
            const missing = hashes.filter(hash => !found.has(hash));
            if (missing.length > 0 && this.chainLibraries) for (const [hash, boc] of await this.chainLibraries(missing)) found.set(hash, boc);
            return found;
        });
        for (const state of states) {
            if (!state.libraries || !state.address.startsWith('-1:')) continue;
            for (const [hash, root] of publicLibrariesInField(state.libraries)) this.resolver.remember(hash, root);
        }
        this.runner.setLibraries(librariesDictionary(await this.resolver.librariesFor(codes)));
    }

    private async storedAccount(db: IndexDb, address: string): Promise<DetectAccount | undefined> {
        const row = await db.selectFrom('account_states').select(['code', 'data', 'balance', 'status']).where('address', '=', address).executeTakeFirst();
        if (!row || row.status !== 'active' || !row.code || !row.data) return undefined;
        return { address: Address.parseRaw(address), code: readBoc(row.code)[0], data: readBoc(row.data)[0], balance: row.balance };
    }
}

const RECENT_ACCOUNTS = 10_000;
const RECENT_CODES = 1_000;

/**
 * What the detection of an account depends on: its code, data and balance (the get-methods it
 * runs see them), and no libraries of its own; null when the source did not give the hashes.
 */
function unchangedKey(state: AccountStateRecord): string | null {
    if (!state.codeHash || !state.dataHash || state.libraries) return null;
    return `${state.codeHash}:${state.dataHash}:${state.balance}`;
}

/** Interfaces of an account: detected when its code could be run, else by the tables (its address, its code hash). */
export function interfacesOf(state: AccountStateRecord, inspected: InspectedAccount | undefined): string[] {
    return inspected ? inspected.detected.interfaces : knownInterfaces(state.address, state.codeHash);
}
