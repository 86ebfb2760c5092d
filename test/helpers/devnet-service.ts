import { startService, type RunningService, type ServiceEvents } from '../../src/app.ts';
import { DEFAULT_CONFIG, type ServiceConfig } from '../../src/config/config.ts';
import { SEED_STEPS } from '../../src/chain/devnet/seed.ts';
import { tempDir } from './stores.ts';

export interface DevnetService extends RunningService {
    base: string;
    dataDir: string;
    /** Stops the service and removes its data directory. */
    dispose(): Promise<void>;
}

/** The whole service on a fresh devnet with a fast block interval, on a free loopback port; `events` gets its log lines. */
export async function startDevnetService(overrides: Partial<ServiceConfig> = {}, keepDir?: string, events?: ServiceEvents): Promise<DevnetService> {
    const dir = keepDir ? { path: keepDir, remove: () => undefined } : tempDir();
    // Tests ask as fast as loopback answers, also of a follower (whose anonymous default is a public one's).
    const service = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: 50, anonRps: 1_000_000, ...overrides }, events);
    return Object.assign(service, {
        base: `${service.url.replace(/\/$/, '')}/v2`,
        dataDir: dir.path,
        async dispose() {
            await service.stop();
            dir.remove();
        },
    });
}

/** Waits until the seed activity has been produced and indexed (a few blocks after the last seed step). */
export async function waitForSeed(service: RunningService): Promise<void> {
    const needed = SEED_STEPS.length + 2;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
        const last = service.indexer?.lastIndexed;
        if (last && last.block.id.workchain === -1 && last.block.id.seqno >= needed) return;
        await new Promise(resolve => setTimeout(resolve, 25));
    }
    throw new Error('the devnet did not produce its seed activity within 60 s');
}
