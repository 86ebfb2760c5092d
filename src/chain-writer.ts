import { setFlagsFromString } from 'node:v8';
import type { Address, Cell } from '@ton/core';
import type { DevnetControl, MessageSink } from './api/services.ts';
import type { ChainSource } from './chain/chain-source.ts';
import { DevnetSource } from './chain/devnet/devnet-source.ts';
import type { ServiceConfig } from './config/config.ts';
import { clientHost } from './config/config.ts';
import { Indexer } from './indexer/indexer.ts';
import { AccountInspector } from './indexer/inspect-accounts.ts';
import type { Store } from './store/store.ts';

/**
 * The writing half of a process: the chain source and the indexer that writes what it yields into
 * the store. `app.ts` loads this module only when the process writes, after its API is up (the
 * chain source and the TVM take most of a start).
 */
export interface ChainWriter {
    source: ChainSource;
    devnet: DevnetSource | null;
    indexer: Indexer;
    /** Messages to the chain, answered once the block that executed them is indexed. */
    messages: MessageSink | undefined;
    /** The devnet's own operations (faucet, manifest), likewise answered once indexed. */
    devnetControl: Omit<DevnetControl, 'faucetCap'> | undefined;
    /** Resolves once the devnet's seed activity is indexed (at once for a chain seeded before). */
    ready: Promise<void>;
    stop(): Promise<void>;
}

export interface WriterEvents {
    log: (line: string) => void;
    progress?: (line: string) => void;
}

export async function startChainWriter(config: ServiceConfig, store: Store, events: WriterEvents): Promise<ChainWriter> {
    // Producing and reading blocks makes many short-lived cells: a larger young generation cuts the
    // collector's share of a loaded devnet by about a third (BENCHMARKS, devnet).
    setFlagsFromString('--max-semi-space-size=64');
    const devnet = new DevnetSource({ dataDir: config.dataDir, blockIntervalMs: config.blockIntervalMs, faucetCap: config.faucetCap, metadataBaseUrl: metadataBaseUrl(config) });
    const indexer = new Indexer(store, devnet, { inspector: await AccountInspector.create() });
    await devnet.start();
    // Registered before the first block can be produced (the devnet's timer fires a block interval after start).
    const ready = seedIndexed(devnet, indexer, events.progress);
    devnet.onFailure(error => events.log(`devnet: block production failed: ${error.message}`));
    devnet.onWarning(message => events.log(`devnet: ${message}`));
    const indexing = indexer.start().catch(error => events.log(`indexer stopped: ${(error as Error).message}`));
    const sink = indexedSink(devnet, indexer);
    return {
        source: devnet,
        devnet,
        indexer,
        messages: sink,
        devnetControl: {
            manifest: async () => devnet.manifest(),
            sendExternalMessage: message => sink.sendExternalMessage(message),
            async faucet(to: Address, amount: bigint) {
                const sent = await devnet.faucet(to, amount);
                await waitIndexed(indexer, sent.cursor);
                return sent;
            },
        },
        ready,
        async stop() {
            await indexer.stop();
            await indexing;
            await devnet.stop();
        },
    };
}

/**
 * The devnet's metadata documents are served by this API; a chain created while listening on a
 * fixed port points its tokens there (with port 0 the address is not known in advance).
 */
function metadataBaseUrl(config: ServiceConfig): string | undefined {
    if (config.port === 0) return undefined;
    return `http://${clientHost(config.host)}:${config.port}/v2/devnet/metadata/`;
}

/** Reports each seed step once its block is indexed; resolves when the whole seed is (at once on a chain seeded before). */
function seedIndexed(devnet: DevnetSource, indexer: Indexer, progress?: (line: string) => void): Promise<void> {
    return new Promise(resolve => {
        if (devnet.seeded) {
            void devnet.head().then(head => (head ? waitIndexer(indexer, last => last.block.id.workchain === -1 && last.block.id.seqno >= head.seqno) : undefined)).then(resolve);
            return;
        }
        devnet.onSeedProgress(step => {
            void waitIndexed(indexer, step.cursor).then(() => {
                progress?.(`seeding ${step.step}/${step.total}: ${step.label}`);
                if (step.step === step.total) resolve();
            });
        });
    });
}

/** Waits until the indexer has committed the block at `cursor`, so a client's next read finds it. */
function waitIndexed(indexer: Indexer, cursor: string): Promise<void> {
    return waitIndexer(indexer, last => Number(last.cursor) >= Number(cursor));
}

/** Resolves once the indexer's last committed block satisfies `reached`. */
function waitIndexer(indexer: Indexer, reached: (last: NonNullable<Indexer['lastIndexed']>) => boolean): Promise<void> {
    const done = () => {
        const last = indexer.lastIndexed;
        return last !== null && reached(last);
    };
    if (done()) return Promise.resolve();
    return new Promise(resolve => {
        const onBlock = () => {
            if (!done()) return;
            indexer.off('block', onBlock);
            resolve();
        };
        indexer.on('block', onBlock);
    });
}

function indexedSink(devnet: DevnetSource, indexer: Indexer): MessageSink {
    return {
        async sendExternalMessage(message: Cell) {
            const sent = await devnet.sendExternalMessage(message);
            await waitIndexed(indexer, sent.cursor);
            return sent;
        },
    };
}
