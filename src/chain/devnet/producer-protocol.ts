import type { SourceHead } from '../chain-source.ts';
import type { DevnetManifest } from './manifest.ts';
import type { SeedProgress, StepStats, SubmittedMessage } from './devnet-producer.ts';

/** What the devnet source asks of its producer thread. */
export type ProducerCommand =
    | { type: 'send'; id: number; boc: Uint8Array }
    | { type: 'faucet'; id: number; to: string; amount: bigint }
    /** Stop producing blocks (messages sent meanwhile wait); answered by a result once the step in progress is committed. */
    | { type: 'pause'; id: number }
    | { type: 'resume' }
    | { type: 'stop' };

/** An error of a request, by what the API makes of it. */
export interface SerializedError {
    kind: 'rejected' | 'input' | 'error';
    message: string;
}

/** What the producer thread tells the devnet source. */
export type ProducerEvent =
    | { type: 'started'; manifest: DevnetManifest; head: SourceHead | null; seeded: boolean }
    | { type: 'produced'; lastSeq: number; head: SourceHead | null; seeded: boolean; stats: StepStats }
    | { type: 'seeded'; progress: SeedProgress }
    | { type: 'warning'; message: string }
    | { type: 'failure'; message: string }
    | { type: 'result'; id: number; sent?: SubmittedMessage | FaucetResult; error?: SerializedError }
    | { type: 'stopped' }
    | { type: 'fatal'; message: string };

export interface FaucetResult extends SubmittedMessage {
    address: string;
    amount: bigint;
}
