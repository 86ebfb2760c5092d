import type { Store } from '../store/store.ts';
import { TOKEN_ATTRIBUTES } from '../ton/jetton/token-content.ts';
import { OutboundFetchError, outboundFetch, type OutboundFetchPolicy } from '../net/safe-fetch.ts';
import { bumpGeneration } from './index-generation.ts';

export interface MetadataFetcherOptions {
    /** Give up on a metadata server after this long. */
    timeoutMs?: number;
    /** Largest document accepted. */
    maxBytes?: number;
    /** How often to look for masters whose metadata is pending. */
    pollMs?: number;
    /** Fetch from private, loopback and link-local addresses too (the devnet's own metadata); default off. */
    allowPrivate?: boolean;
    /** Told why a document could not be had from an http(s) URI (one line per URI). */
    log?: (line: string) => void;
}

/**
 * Fetches the off-chain TEP-64 documents of jetton masters, apart from ingestion: the indexer
 * only marks a master `pending`; this worker fetches with a timeout and a size cap, merges the
 * document under the on-chain attributes (which take precedence) and marks it `ok` or `failed`.
 * A server that hangs or answers junk costs one timeout and never delays a block.
 */
export class JettonMetadataFetcher {
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<void> | null = null;
    private readonly documents = new Map<string, Record<string, string> | null>();
    private readonly timeoutMs: number;
    private readonly maxBytes: number;
    private readonly pollMs: number;
    private readonly policy: OutboundFetchPolicy;
    private readonly log: (line: string) => void;
    /** Why each URI that gave no document failed. */
    readonly failures = new Map<string, string>();

    constructor(private readonly store: Store, options: MetadataFetcherOptions = {}) {
        this.timeoutMs = options.timeoutMs ?? 5000;
        this.maxBytes = options.maxBytes ?? 256 * 1024;
        this.pollMs = options.pollMs ?? 500;
        this.log = options.log ?? (() => undefined);
        this.policy = {
            allowPrivate: options.allowPrivate ?? false, timeoutMs: this.timeoutMs, maxBytes: this.maxBytes, headers: { accept: 'application/json' },
        };
    }

    start(): void {
        const tick = () => {
            this.running = this.fetchPending().then(() => undefined, () => undefined).finally(() => {
                this.running = null;
                if (this.timer !== null) this.timer = setTimeout(tick, this.pollMs);
            });
        };
        this.timer = setTimeout(tick, 0);
    }

    async stop(): Promise<void> {
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        await this.running;
    }

    /** One pass over the masters waiting for their document. */
    async fetchPending(): Promise<number> {
        const pending = await this.store.db.selectFrom('jetton_masters').select(['address', 'metadata', 'metadata_uri'])
            .where('metadata_status', '=', 'pending').limit(16).execute();
        await Promise.all(pending.map(async master => {
            const document = master.metadata_uri ? await this.document(master.metadata_uri) : null;
            const onchain = JSON.parse(master.metadata) as Record<string, string>;
            // The generation moves with a merged document: API processes keep jettons' metadata until it does.
            // It is bumped first, as a block's transaction does, so the two take their locks in one order
            // (on PostgreSQL the other order deadlocks with a block that writes the same master).
            await this.store.db.transaction().execute(async trx => {
                if (document) await bumpGeneration(trx);
                await trx.updateTable('jetton_masters')
                    .set(document ? { metadata: JSON.stringify({ ...document, ...onchain }), metadata_status: 'ok' } : { metadata_status: 'failed' })
                    .where('address', '=', master.address).where('metadata_status', '=', 'pending')
                    .execute();
            });
        }));
        return pending.length;
    }

    private async document(uri: string): Promise<Record<string, string> | null> {
        if (!this.documents.has(uri)) this.documents.set(uri, await this.download(uri));
        return this.documents.get(uri)!;
    }

    private async download(uri: string): Promise<Record<string, string> | null> {
        try {
            return await this.read(uri);
        } catch (error) {
            // The outbound fetch's messages name the URL already.
            const why = error instanceof OutboundFetchError ? error.message : `${uri}: ${(error as Error).message}`;
            if (this.failures.size > 10_000) this.failures.clear();
            this.failures.set(uri, why);
            // ipfs:// and the like are common and never fetched: not worth a line each.
            if (/^https?:\/\//i.test(uri)) this.log(`jetton metadata ${why}`);
            return null;
        }
    }

    private async read(uri: string): Promise<Record<string, string>> {
        if (!/^https?:\/\//i.test(uri)) throw new Error('not an http(s) URI, not fetched');
        const response = await outboundFetch(uri, this.policy);
        if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
        const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
        const document: Record<string, string> = {};
        for (const key of TOKEN_ATTRIBUTES) {
            const value = (parsed as Record<string, unknown>)[key];
            if (typeof value === 'string' || typeof value === 'number') document[key] = String(value);
        }
        return document;
    }
}
