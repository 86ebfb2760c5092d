import pg from 'pg';

const CHANNEL = 'index_generation';
/**
 * How long a generation learnt from the server is used without asking again: the bound on how
 * stale it can be if a notification were lost without the connection failing.
 */
const TRUSTED_MS = 1_000;
/** Pause before listening again after the listening connection failed. */
const RETRY_MS = 1_000;

/**
 * The index generation (store/read/index-generation.ts) of a PostgreSQL index, pushed by the
 * server: migration 0010 announces every change on a channel when its transaction commits, and
 * this process listens on a connection of its own. Answers that depend on the generation (kept
 * texts, the status) then need no round trip, which at ten connections was a third of the work of
 * a kept trace. Until the listening connection is up, or while it is down, every call asks.
 *
 * A notification reaches the listener moments after the commit; an answer made in between is one
 * made at the generation before, as if it had been asked a moment earlier.
 */
export class GenerationListener {
    private client: pg.Client | null = null;
    private listening = false;
    private known: bigint | null = null;
    private knownAt = 0;
    private retryAt = 0;
    private closed = false;

    constructor(private readonly url: string, private readonly ask: () => Promise<bigint>) {}

    async current(): Promise<bigint> {
        if (this.known !== null && performance.now() - this.knownAt < TRUSTED_MS) return this.known;
        this.listen();
        // Asked only once listening: whatever commits after the answer is announced.
        const wasListening = this.listening;
        const asked = await this.ask();
        if (wasListening && this.listening) this.learn(asked);
        return this.known !== null && this.listening && this.known > asked ? this.known : asked;
    }

    async close(): Promise<void> {
        this.closed = true;
        const client = this.client;
        this.drop();
        await client?.end().catch(() => undefined);
    }

    private learn(generation: bigint): void {
        if (this.known === null || generation > this.known) this.known = generation;
        this.knownAt = performance.now();
    }

    private listen(): void {
        if (this.client || this.closed || performance.now() < this.retryAt) return;
        const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 5_000 });
        this.client = client;
        client.on('notification', message => {
            if (message.channel !== CHANNEL || !this.listening || message.payload === undefined) return;
            if (/^[0-9]+$/.test(message.payload)) this.learn(BigInt(message.payload));
        });
        const failed = () => {
            if (this.client !== client) return;
            this.drop();
            this.retryAt = performance.now() + RETRY_MS;
            client.end().catch(() => undefined);
        };
        client.on('error', failed);
        client.on('end', failed);
        client.connect()
            .then(() => client.query(`LISTEN ${CHANNEL}`))
            .then(() => {
                if (this.client === client) this.listening = true;
            })
            .catch(failed);
    }

    private drop(): void {
        this.client = null;
        this.listening = false;
        this.known = null;
    }
}
