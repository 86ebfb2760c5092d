/**
 * GET /v2/rewards/round-rewards: resolves the round a selector names, checks it has finished,
 * finds its first and last masterchain blocks, reads the elector (and in deep mode the pools) at
 * the round's blocks through a RoundChainReader, and computes the distribution (compute.ts).
 * Finished rounds never change: their answers are cached per election id.
 *
 * Round boundaries: a validator set becomes config param 34 in the first masterchain block whose
 * time reaches its utime_since (config contract tick), so p34.utime_since is monotonic in seqno.
 * start_block = first block with p34.since ≥ E, end_block = (first block with p34.since > E) − 1,
 * each found from the liteserver's lookup by time and checked (galloping + bisection when the guess
 * is off). prev_election_id = p32.since at start_block; next_election_id = p34.since at end_block+1.
 * The election record is the past_elections entry whose vset_hash is the hash of the round's p34
 * (normally also keyed by E), read at end_block+1, as are the pools and the elector's credits.
 */
import { addPoolDetails, computeValidatorRewards, hex256, shallowRow, type ValidatorReward } from './compute.ts';
import { ChainReadError, type ChainHead, type RoundChainReader } from './chain-reader.ts';

/** The chain reads the service makes (RoundChainReader; tests may give a model chain). */
export type RoundChainReads = Pick<RoundChainReader, 'head' | 'blockAtUtime' | 'validatorSets' | 'pastElections' | 'account' | 'electorCredits'>;
import type { ElectionRecord } from './elector-data.ts';
import type { PoolAccount } from './pools.ts';
import type { RoundValidatorSet } from './validator-set.ts';

export type RoundSelector = { electionId: number } | { block: number } | { unixtime: number } | { last: true };

export type RoundRewardsErrorKind = 'bad_request' | 'not_found' | 'not_finished' | 'unavailable';

/** A request this service cannot answer, with a message for the user. */
export class RoundRewardsError extends Error {
    override readonly name = 'RoundRewardsError';

    constructor(readonly kind: RoundRewardsErrorKind, message: string) {
        super(message);
    }
}

export interface RoundRewards {
    election_id: number;
    prev_election_id?: number;
    next_election_id?: number;
    round_start: string;
    round_end: string;
    start_block: number;
    end_block: number;
    total_bonuses: bigint;
    total_stake: bigint;
    validators: ValidatorReward[];
}

export interface RoundRewardsProvider {
    roundRewards(selector: RoundSelector, options?: { shallow?: boolean }): Promise<RoundRewards>;
}

export interface RoundRewardsOptions {
    /** Finished rounds kept (LRU); default 32. */
    cacheSize?: number;
    /** Pool accounts read at once in deep mode; default 16. */
    poolConcurrency?: number;
    /** Who answers chain reads, for messages: e.g. "the devnet" or "the configured liteservers". */
    sourceName?: string;
    /** When a source cannot answer for old blocks, what to do about it (appended to 404 messages). */
    historyHint?: string;
}

interface Round {
    since: number;
    until: number;
    startBlock: number;
    endBlock: number;
    set: RoundValidatorSet;
}

interface CachedRound {
    round: Round;
    meta: Omit<RoundRewards, 'validators'>;
    rows: ValidatorReward[];
    srcAddrs: (bigint | null)[];
    deep: ValidatorReward[] | null;
}

export function isoSeconds(unix: number): string {
    return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class RoundRewardsService implements RoundRewardsProvider {
    private readonly cache = new Map<number, CachedRound>();
    private readonly cacheSize: number;
    private readonly poolConcurrency: number;
    private readonly sourceName: string;
    private readonly historyHint: string;

    constructor(readonly reader: RoundChainReads, options: RoundRewardsOptions = {}) {
        this.cacheSize = options.cacheSize ?? 32;
        this.poolConcurrency = options.poolConcurrency ?? 16;
        this.sourceName = options.sourceName ?? 'the chain source';
        this.historyHint = options.historyHint ?? '';
    }

    async roundRewards(selector: RoundSelector, options: { shallow?: boolean } = {}): Promise<RoundRewards> {
        try {
            const cached = this.cachedFor(selector) ?? (await this.load(selector));
            const validators = options.shallow ? cached.rows.map(shallowRow) : await this.deepRows(cached);
            return { ...cached.meta, validators };
        } catch (error) {
            throw this.userError(error);
        }
    }

    private userError(error: unknown): unknown {
        if (!(error instanceof ChainReadError)) return error;
        if (error.answered) return new RoundRewardsError('not_found', `${this.sourceName} cannot give ${error.message}${this.historyHint ? `; ${this.historyHint}` : ''}`);
        return new RoundRewardsError('unavailable', `${this.sourceName} did not answer (${error.message}); try again later`);
    }

    private cachedFor(selector: RoundSelector): CachedRound | undefined {
        for (const entry of this.cache.values()) {
            const { round } = entry;
            const hit = 'block' in selector ? selector.block >= round.startBlock && selector.block <= round.endBlock
                : 'electionId' in selector ? selector.electionId >= round.since && selector.electionId < round.until
                    : 'unixtime' in selector ? selector.unixtime >= round.since && selector.unixtime < round.until : false;
            if (hit) {
                this.cache.delete(round.since);
                this.cache.set(round.since, entry);
                return entry;
            }
        }
        return undefined;
    }

    private remember(entry: CachedRound): void {
        this.cache.delete(entry.round.since);
        this.cache.set(entry.round.since, entry);
        while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as number);
    }

    private async since(seqno: number): Promise<number> {
        return (await this.reader.validatorSets(seqno)).current?.utimeSince ?? 0;
    }

    /** The masterchain block whose p34 is the round asked for. */
    private async anchor(selector: RoundSelector, head: ChainHead): Promise<number> {
        if ('block' in selector) {
            if (selector.block > head.seqno) throw new RoundRewardsError('not_found', `masterchain block ${selector.block} does not exist yet (the newest is ${head.seqno}); its round has not finished`);
            return selector.block;
        }
        if ('last' in selector) {
            const current = await this.since(head.seqno);
            const start = await this.firstBlock(async seqno => (await this.since(seqno)) >= current, head.seqno, 1, head.seqno);
            if (start <= 1 || (await this.since(start - 1)) === 0) {
                throw new RoundRewardsError('not_found', `no validation round has finished on this chain yet (the current round ${current} started at masterchain block ${start}); ask again once it ends`);
            }
            return start - 1;
        }
        const time = 'electionId' in selector ? selector.electionId : selector.unixtime;
        const name = 'electionId' in selector ? 'election_id' : 'unixtime';
        if (time > head.utime) {
            throw new RoundRewardsError('not_finished', `${name} ${time} is after the newest masterchain block (${head.seqno}, at ${isoSeconds(head.utime)}); the round it falls in has not finished`);
        }
        const seqno = (await this.reader.blockAtUtime(time)).seqno;
        if ((await this.since(seqno)) <= time || seqno <= 1) return seqno;
        // the first block at or after `time` is already in a later round: `time` is in the one before
        const before = seqno - 1;
        const since = await this.since(before);
        if (since === 0 || since > time) throw new RoundRewardsError('not_found', `no validation round covers ${name} ${time} on this chain (its first round began at ${isoSeconds(await this.since(seqno))})`);
        return before;
    }

    /**
     * The least seqno in [lo, hi] where `reached` holds (it is monotonic: false … true, and true at
     * hi), starting from a guess: two reads when the guess is right, a galloping search otherwise.
     */
    private async firstBlock(reached: (seqno: number) => Promise<boolean>, guess: number, lo: number, hi: number): Promise<number> {
        const g = Math.min(hi, Math.max(lo, guess));
        let yes: number;
        let no: number;
        if (await reached(g)) {
            yes = g;
            for (let step = 1; ; step *= 2) {
                if (yes === lo) return lo;
                const probe = Math.max(lo, yes - step);
                if (!(await reached(probe))) {
                    no = probe;
                    break;
                }
                yes = probe;
            }
        } else {
            no = g;
            for (let step = 1; ; step *= 2) {
                const probe = Math.min(hi, no + step);
                if (await reached(probe)) {
                    yes = probe;
                    break;
                }
                if (probe === hi) throw new RoundRewardsError('not_found', `the round boundary after masterchain block ${no} was not found`);
                no = probe;
            }
        }
        while (yes - no > 1) {
            const mid = Math.floor((yes + no) / 2);
            if (await reached(mid)) yes = mid;
            else no = mid;
        }
        return yes;
    }

    private async load(selector: RoundSelector): Promise<CachedRound> {
        const head = await this.reader.head();
        const anchor = await this.anchor(selector, head);
        const set = (await this.reader.validatorSets(anchor)).current;
        if (!set || set.utimeSince === 0) throw new RoundRewardsError('not_found', `config param 34 is empty at masterchain block ${anchor}: no validation round there`);
        const E = set.utimeSince;
        const cached = this.cache.get(E);
        if (cached) return cached;
        const headSince = await this.since(head.seqno);
        if (headSince <= E) {
            const ends = set.utimeUntil <= head.utime ? `passed its nominal end ${isoSeconds(set.utimeUntil)} but no next validator set has taken over yet` : `ends ${isoSeconds(set.utimeUntil)}`;
            const previous = (await this.reader.validatorSets(anchor)).previous;
            const hint = previous && previous.utimeSince > 0 ? `; the last finished round is election_id=${previous.utimeSince}` : '';
            throw new RoundRewardsError('not_finished', `round ${E} is not finished yet (it ${ends})${hint}`);
        }
        const [startGuess, endGuess] = await Promise.all([
            this.reader.blockAtUtime(E).then(b => b.seqno, () => anchor),
            this.reader.blockAtUtime(set.utimeUntil).then(b => b.seqno, () => head.seqno),
        ]);
        const [startBlock, afterEnd] = await Promise.all([
            this.firstBlock(async s => (await this.since(s)) >= E, startGuess, 1, anchor),
            this.firstBlock(async s => (await this.since(s)) > E, endGuess, anchor + 1, head.seqno),
        ]);
        const endBlock = afterEnd - 1;
        const [startSets, nextSets, elections] = await Promise.all([
            this.reader.validatorSets(startBlock), this.reader.validatorSets(afterEnd), this.reader.pastElections(afterEnd),
        ]);
        const election = this.electionOf(elections, set, afterEnd);
        const { rows, srcAddrs } = computeValidatorRewards({ validators: set.list, election });
        const prev = startSets.previous?.utimeSince;
        const next = nextSets.current?.utimeSince;
        const meta: CachedRound['meta'] = {
            election_id: E,
            ...(prev ? { prev_election_id: prev } : {}),
            ...(next ? { next_election_id: next } : {}),
            round_start: isoSeconds(set.utimeSince),
            round_end: isoSeconds(set.utimeUntil),
            start_block: startBlock,
            end_block: endBlock,
            total_bonuses: election.bonuses,
            total_stake: election.totalStake,
        };
        const entry: CachedRound = { round: { since: E, until: set.utimeUntil, startBlock, endBlock, set }, meta, rows, srcAddrs, deep: null };
        this.remember(entry);
        return entry;
    }

    private electionOf(elections: ElectionRecord[], set: RoundValidatorSet, seqno: number): ElectionRecord {
        const found = elections.find(e => e.vsetHash === set.hash) ?? elections.find(e => e.electionId === set.utimeSince);
        if (!found) {
            throw new RoundRewardsError('not_found', `round ${set.utimeSince} has no election record in the elector at masterchain block ${seqno} `
                + `(past_elections holds ${elections.map(e => e.electionId).join(', ') || 'nothing'}): the set was not elected by the elector (e.g. a genesis set), or its record was released already`);
        }
        return found;
    }

    private async deepRows(entry: CachedRound): Promise<ValidatorReward[]> {
        if (entry.deep) return entry.deep;
        const seqno = entry.round.endBlock + 1;
        const sources = [...new Set(entry.srcAddrs.filter((s): s is bigint => s !== null))];
        const accounts = new Map<string, PoolAccount | null>();
        const credits = this.reader.electorCredits(seqno);
        let next = 0;
        const worker = async () => {
            while (next < sources.length) {
                const src = hex256(sources[next++]);
                accounts.set(src, await this.reader.account(seqno, Buffer.from(src, 'hex')));
            }
        };
        const [credited] = await Promise.all([credits, ...[...Array(Math.min(this.poolConcurrency, sources.length))].map(worker)]);
        const rows = entry.rows.map(row => ({ ...row }));
        entry.deep = addPoolDetails(rows, entry.srcAddrs, { accounts, credits: credited });
        return entry.deep;
    }
}
